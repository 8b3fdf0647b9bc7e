//! Per-declaration version hashes (§3.12, serialised by [`crate::hash`]), the file hash, and
//! our schema hashes (over a type's whole closure, [`crate::schema_hash`]).

use super::Sema;
use crate::hash::{md5_hex, Mode, Serializer};
use crate::ir::*;

impl Sema<'_> {
    /// Per-declaration hashes for everything outside include blocks (§3.12).
    pub(super) fn hash_declarations(&mut self, tree: &mut [Item]) {
        for i in 0..self.decls.len() {
            if self.decls[i].from_include {
                continue;
            }
            let mut ser = Serializer::new(&self.decls, Mode::Declaration);
            ser.decl(DeclId(i as u32), None);
            let h = md5_hex(&ser.finish());
            self.decls[i].hash = Some(h);
        }
        fn namespaces(decls: &[Decl], items: &mut [Item]) {
            for item in items {
                match item {
                    Item::Namespace(ns) => {
                        namespaces(decls, &mut ns.items);
                        if !ns.from_include {
                            let mut ser = Serializer::new(decls, Mode::Declaration);
                            ser.namespace(ns, None);
                            ns.hash = Some(md5_hex(&ser.finish()));
                        }
                    }
                    Item::Include(inc) => namespaces(decls, &mut inc.items),
                    Item::Decl(_) => {}
                }
            }
        }
        namespaces(&self.decls, tree);
    }

    /// The schema hash of every enum, message, structure and union (included ones too).
    pub(super) fn schema_hashes(&mut self) {
        let hashes = crate::schema_hash::compute(&self.decls);
        for (d, h) in self.decls.iter_mut().zip(hashes) {
            d.schema_hash = h.as_ref().map(crate::schema_hash::hex);
        }
    }

    /// The file hash (§3.12): the whole tree, include blocks as written.
    pub(super) fn file_hash(&self, tree: &[Item]) -> String {
        let mut ser = Serializer::new(&self.decls, Mode::File);
        ser.root(tree);
        md5_hex(&ser.finish())
    }
}
