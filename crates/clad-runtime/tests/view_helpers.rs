//! The read helpers of borrowed views agree with the owned helpers (same values, same errors
//! at the same offsets) and borrow from the input; `ArrayView` behaves like the `Vec` it
//! stands for. (Generated views are checked against generated owned types on every
//! conformance vector and fuzz input in `clad-conformance`.)

use clad_runtime::wire::{self, ArrayView, Reader, UnpackError, NO_MAX};

/// Runs an owned and a borrowing reader over the same bytes from the same start.
type Read<T> = Result<(T, usize), UnpackError>;

fn both<'b, A, B>(
    bytes: &'b [u8],
    owned: impl FnOnce(&mut Reader<'b>) -> Result<A, UnpackError>,
    view: impl FnOnce(&mut Reader<'b>) -> Result<B, UnpackError>,
) -> (Read<A>, Read<B>) {
    let mut r = Reader::new(bytes);
    let a = owned(&mut r).map(|v| (v, r.position()));
    let mut r = Reader::new(bytes);
    let b = view(&mut r).map(|v| (v, r.position()));
    (a, b)
}

#[test]
fn byte_slices_borrow_and_fail_like_byte_vecs() {
    let bytes = [3, 0, 7, 8, 9, 0xAA];
    let (a, b) = both(
        &bytes,
        |r| wire::read_byte_vec::<u16>(r, NO_MAX),
        |r| wire::read_byte_slice::<u16>(r, NO_MAX),
    );
    let ((owned, n), (view, m)) = (a.unwrap(), b.unwrap());
    assert_eq!((owned.as_slice(), n), (view, m));
    assert_eq!(view.as_ptr(), bytes[2..].as_ptr());
    for (input, max) in [(&bytes[..4], NO_MAX), (&bytes[..], 2)] {
        let (a, b) = both(
            input,
            |r| wire::read_byte_vec::<u16>(r, max),
            |r| wire::read_byte_slice::<u16>(r, max),
        );
        assert_eq!(a.unwrap_err(), b.unwrap_err());
    }
}

#[test]
fn string_arrays_borrow_and_fail_like_owned_ones() {
    let bytes = [2, 2, b'h', b'i', 1, b'!'];
    let (a, b) = both(
        &bytes,
        |r| wire::read_string_vec::<u8, u8>(r, NO_MAX, NO_MAX),
        |r| wire::read_str_vec::<u8, u8>(r, NO_MAX, NO_MAX),
    );
    let ((owned, n), (view, m)) = (a.unwrap(), b.unwrap());
    assert_eq!((owned, n), (vec!["hi".to_owned(), "!".to_owned()], m));
    assert_eq!(view, ["hi", "!"]);
    let (a, b) = both(
        &bytes[1..],
        |r| wire::read_string_array::<u8, 2>(r, NO_MAX),
        |r| wire::read_str_array::<u8, 2>(r, NO_MAX),
    );
    assert_eq!(a.unwrap().0, ["hi", "!"].map(String::from));
    assert_eq!(b.unwrap().0, ["hi", "!"]);
    // Bad UTF-8 in the second string, a string above its maximum, a hostile count.
    for (input, string_max) in [
        (&[2, 2, b'h', b'i', 1, 0xFF][..], NO_MAX),
        (&bytes[..], 1),
        (&[200, 0][..], NO_MAX),
    ] {
        let (a, b) = both(
            input,
            |r| wire::read_string_vec::<u8, u8>(r, NO_MAX, string_max),
            |r| wire::read_str_vec::<u8, u8>(r, NO_MAX, string_max),
        );
        assert_eq!(a.unwrap_err(), b.unwrap_err(), "{input:?}");
    }
}

#[test]
fn array_views_hold_validated_elements_and_read_like_vecs() {
    let values: [i16; 4] = [1, -2, 0x1234, i16::MIN];
    let mut bytes = vec![4u8];
    for v in values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let (a, b) = both(
        &bytes,
        |r| wire::read_vec::<u8, i16>(r, NO_MAX),
        |r| wire::read_array_view::<u8, i16>(r, NO_MAX),
    );
    let ((owned, n), (view, m)): ((Vec<i16>, usize), (ArrayView<'_, i16>, usize)) =
        (a.unwrap(), b.unwrap());
    assert_eq!(n, m);
    assert_eq!(view.len(), 4);
    assert!(!view.is_empty());
    assert_eq!(view.get(2), Some(0x1234));
    assert_eq!(view.get(4), None);
    assert_eq!(view.iter().len(), 4);
    assert_eq!(view.to_vec(), owned);
    assert_eq!(view.into_iter().collect::<Vec<_>>(), owned);
    // A view of the owned elements equals the decoded one.
    assert_eq!(view, ArrayView::from(owned.as_slice()));
    assert_ne!(view, ArrayView::from(&owned[..3]));
    assert_eq!(format!("{view:?}"), format!("{owned:?}"));

    // Counts above the maximum or the remaining input fail the same way, before anything.
    for (input, max) in [
        (&bytes[..], 3),
        (&bytes[..6], NO_MAX),
        (&[255u8][..], NO_MAX),
    ] {
        let (a, b) = both(
            input,
            |r| wire::read_vec::<u8, i16>(r, max),
            |r| wire::read_array_view::<u8, i16>(r, max),
        );
        assert_eq!(a.unwrap_err(), b.unwrap_err(), "{input:?} max {max}");
    }
    let empty = wire::read_array_view::<u8, u32>(&mut Reader::new(&[0]), NO_MAX).unwrap();
    assert!(empty.is_empty());
    assert_eq!(empty.get(0), None);
}
