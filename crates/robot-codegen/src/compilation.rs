//! What compiling one map produces, whichever map it is.

use clad_codegen::extension::Output;
use clad_codegen::source::SourceDb;
use clad_codegen::{diagnostics, Diagnostic};

/// The result of compiling one map file: its diagnostics and, only without errors, its model
/// (`M`: [`IntentMapModel`](crate::intent_map::IntentMapModel) or
/// [`HriMapModel`](crate::hri_map::HriMapModel)).
#[derive(Debug)]
pub struct Compilation<M> {
    /// The schema's files plus the JSON file (for rendering diagnostics).
    pub sources: SourceDb,
    /// Errors and warnings, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The validated map, present only when there was no error.
    pub model: Option<M>,
}

impl<M> Compilation<M> {
    /// True when any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// All diagnostics rendered with source snippets (no colour).
    pub fn render(&self) -> String {
        diagnostics::render(&self.diagnostics, &self.sources, false)
    }

    /// The build extension's answer: without errors, the item `emit` writes from the model
    /// (its errors alone when it fails), else the diagnostics with their sources.
    pub(crate) fn into_output(
        self,
        emit: impl FnOnce(&M) -> Result<String, Vec<Diagnostic>>,
    ) -> Output {
        let Some(model) = &self.model else {
            return Output {
                diagnostics: self.diagnostics,
                sources: self.sources,
                ..Output::default()
            };
        };
        match emit(model) {
            Ok(code) => Output {
                items: vec![code],
                diagnostics: self.diagnostics,
                sources: self.sources,
            },
            Err(d) => Output::from_diagnostics(d),
        }
    }
}
