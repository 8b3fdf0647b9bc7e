//! Void intents cost no heap allocation: a counting global allocator around the translator
//! and the component's cloud path.

use robot_runtime_tests as support;

use robot_runtime::intent::{IntakeOutcome, IntentComponent, IntentSource, IntentTranslator};
use support::counting_alloc::{allocations, Counting};
use support::*;

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn void_intents_do_not_allocate() {
    let t = IntentTranslator::<UserIntent>::new(&MAP);
    for params in ["", "{}\n", "{\"extra\":\"ignored\"}", "not json at all"] {
        let (n, r) = allocations(|| t.translate_cloud("intent_imperative_come", params));
        assert_eq!(r.unwrap().intent, UserIntent::ImperativeCome(Void {}));
        assert_eq!(n, 0, "translate_cloud(void, {params:?})");
    }
    let (n, r) = allocations(|| t.translate_app("intent_test_user_intent_2", "x"));
    assert_eq!(r.unwrap().intent, UserIntent::TestUserIntent2(Void {}));
    assert_eq!(n, 0, "translate_app(void)");

    // Through the component: cloud result → pending typed intent, replaced, dropped,
    // expired; feature-gated and whitelisted-out intents become unmatched without
    // allocating either.
    let mut c = IntentComponent::<UserIntent>::new(&MAP);
    c.set_feature_gate(|f: &str| f != "GazeDirection");
    c.handle_cloud_result("intent_imperative_come", ""); // warm up the event buffer
    c.update();
    let (n, out) = allocations(|| {
        c.handle_cloud_result("intent_imperative_come", "");
        c.handle_cloud_result("intent_greeting_goodmorning", "{\"x\":\"y\"}\n");
        c.handle_cloud_result("intent_imperative_lookoverthere", "")
    });
    assert!(matches!(
        out,
        IntakeOutcome::Pending {
            tag: UserIntentTag::UnmatchedIntent,
            ..
        }
    ));
    assert_eq!(n, 0, "component cloud path");
    c.set_whitelist([UserIntentTag::SetTimer]);
    let (n, _) = allocations(|| {
        c.handle_cloud_result("intent_imperative_come", "");
        c.update();
        c.update();
        c.update();
        c.update();
        c.set_pending_tag(UserIntentTag::ImperativeCome, IntentSource::Dev);
        c.drop_any_pending()
    });
    assert_eq!(n, 0, "whitelist, ticks, expiry, dev set/drop");

    // For comparison, data intents do allocate (the strings they own, serde's buffer).
    let (n, _) = allocations(|| t.translate_cloud("intent_weather_extend", WEATHER_PARAMS));
    assert!(n > 0);
}
