//! Names of labels for reports: every location label by the variable, allocation site or field
//! path it stands for, and every lock label by the object and field path holding it (the first
//! object to reach a lock names it). Data only; the renderers turn it into words.

use rustc_hash::{FxHashMap, FxHashSet};

use super::ltypes::Shape;
use super::{Gen, Object, RhoName};
use crate::analyses::unpacks::Package;
use solver::ids::IndexVec;
use solver::threads::{ObjectId, ThreadProgram};
use solver::{Lock, Rho};

/// What [`Gen::label_names`] finds.
pub(super) struct LabelNames {
    pub rho_names: IndexVec<Rho, RhoName>,
    pub lock_names: FxHashMap<Lock, RhoName>,
}

impl Gen<'_> {
    /// Names for the labels of every object and of what it contains.
    pub(super) fn label_names(
        &mut self,
        objects: &[Object],
        threads: &ThreadProgram,
    ) -> LabelNames {
        let mut rho_names: IndexVec<Rho, RhoName> =
            IndexVec::from_elem_n(RhoName::Other, self.c.rhos.len());
        for (r, n) in self.rho_names.drain() {
            rho_names[r] = n;
        }
        let mut lock_names = FxHashMap::default();
        for o in objects {
            let mut stack = vec![(o.content, rho_names[o.rho].clone())];
            let mut seen = FxHashSet::default();
            while let Some((node, name)) = stack.pop() {
                let node = self.t.representative(node);
                if !seen.insert(node) {
                    continue;
                }
                match self.t.shape(node) {
                    Shape::Lock(l) => {
                        lock_names.entry(l).or_insert_with(|| name.clone());
                    }
                    // Each type the memory is viewed at is the same object.
                    Shape::Void(entries) => {
                        stack.extend(entries.into_iter().map(|(_, n)| (n, name.clone())));
                    }
                    Shape::Struct { sid, fields } => {
                        for f in fields {
                            let field = self.p.types.structs[sid]
                                .fields
                                .get(f.index as usize)
                                .map(|x| x.name.clone())
                                .unwrap_or_default();
                            let fname = RhoName::Field {
                                parent: Box::new(name.clone()),
                                field,
                            };
                            if rho_names[f.rho] == RhoName::Other {
                                rho_names[f.rho] = fname.clone();
                            }
                            stack.push((f.content, fname));
                        }
                    }
                    _ => {}
                }
            }
        }
        for (o, object) in objects.iter().enumerate() {
            for &l in &threads.objects[ObjectId(o as u32)].locks {
                lock_names
                    .entry(l)
                    .or_insert_with(|| rho_names[object.rho].clone());
            }
        }
        for (package, l) in &self.opened {
            lock_names.insert(*l, self.package_name(package));
        }
        lock_names.extend(self.element_names());
        LabelNames {
            rho_names,
            lock_names,
        }
    }

    /// The name of a package's opened lock: the field path of the lock in objects of its struct
    /// type.
    fn package_name(&self, package: &Package) -> RhoName {
        let structs = &self.p.types.structs;
        let fields = match package {
            Package::Lock(fields) => fields,
            Package::Thread | Package::Element => return RhoName::ThreadArgument,
            Package::Slot(..) => return RhoName::ThreadSlot,
            Package::Stripe(array, path) => {
                let fields = path
                    .iter()
                    .map(|&(s, i)| {
                        structs[s]
                            .fields
                            .get(i as usize)
                            .map(|x| x.name.clone())
                            .unwrap_or_default()
                    })
                    .collect();
                return RhoName::StripeLock {
                    array: *array,
                    fields,
                };
            }
            // A written unpack opens no lock of its own.
            Package::Written => return RhoName::Other,
        };
        let first = fields.first().map(|&(s, _)| s);
        let mut name = RhoName::OwnLock {
            strukt: first
                .and_then(|s| structs[s].tag.clone())
                .unwrap_or_else(|| "(anonymous)".into()),
        };
        for &(s, i) in fields {
            let field = structs[s]
                .fields
                .get(i as usize)
                .map(|x| x.name.clone())
                .unwrap_or_default();
            name = RhoName::Field {
                parent: Box::new(name),
                field,
            };
        }
        name
    }
}
