//! Names of labels for reports: every location label by the variable, allocation site or field
//! path it stands for, and every lock label by the object and field path holding it (the first
//! object to reach a lock names it). Data only; the renderers turn it into words.

use rustc_hash::{FxHashMap, FxHashSet};

use super::ltypes::Shape;
use super::{Gen, Object, RhoName};
use crate::analyses::unpacks::Package;
use crate::ir::{Origin, VarKind};
use solver::ids::IndexVec;
use solver::threads::{ObjectId, ThreadProgram};
use solver::{Lock, Rho};

/// Whether an object's name may be a lock's ([`Gen::lock_naming`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum LockNaming {
    /// Its type may hold a lock, or it has no declared type.
    Holds = 0,
    /// A variable of a type holding no lock: only for a lock no object of the first kind reaches.
    Fallback = 1,
    /// A variable the program only declares: never.
    Never,
}

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
            IndexVec::from_elem_n(RhoName::Other, self.constraints.rhos.len());
        for (r, n) in self.rho_names.drain() {
            rho_names[r] = n;
        }
        // Objects that may hold a lock name it first ([`LockNaming`]); a lock conflation carried
        // elsewhere is named after another object only if none of those reaches it. Fields are
        // named by the first object in order, whatever its kind.
        let mut by_naming = [FxHashMap::default(), FxHashMap::default()];
        let mut conflated = Vec::new();
        for (o, object) in objects.iter().enumerate() {
            let naming = self.lock_naming(&rho_names[object.rho]);
            let mut found = Vec::new();
            self.name_fields_inside(object, &mut rho_names, &mut found, &mut conflated);
            if naming == LockNaming::Never {
                continue;
            }
            let names = &mut by_naming[naming as usize];
            for (l, name) in found {
                names.entry(l).or_insert(name);
            }
            for &l in &threads.objects[ObjectId(o as u32)].locks {
                names
                    .entry(l)
                    .or_insert_with(|| rho_names[object.rho].clone());
            }
        }
        let [mut lock_names, fallback] = by_naming;
        for (l, name) in fallback {
            lock_names.entry(l).or_insert(name);
        }
        for l in conflated {
            lock_names.entry(l).or_insert(RhoName::Conflated);
        }
        for (package, l) in &self.opened {
            lock_names.insert(*l, self.package_name(package));
        }
        for &(n, l) in &self.mask_locks {
            lock_names.insert(l, RhoName::SignalMask(n));
        }
        for (l, name) in &self.turn_locks {
            lock_names.insert(*l, RhoName::Turn(Box::new(name.clone())));
        }
        lock_names.extend(self.element_names());
        LabelNames {
            rho_names,
            lock_names,
        }
    }

    /// Names the fields inside object `o` after it, where nothing named them yet, and lists
    /// the locks it holds with their names (a lock in a field is named by the field's path)
    /// and the locks of the conflated memory it holds.
    fn name_fields_inside(
        &mut self,
        o: &Object,
        rho_names: &mut IndexVec<Rho, RhoName>,
        locks: &mut Vec<(Lock, RhoName)>,
        conflated: &mut Vec<Lock>,
    ) {
        let mut stack = vec![(o.content, rho_names[o.rho].clone())];
        let mut seen = FxHashSet::default();
        while let Some((node, name)) = stack.pop() {
            let node = self.ltypes.representative(node);
            if !seen.insert(node) {
                continue;
            }
            match self.ltypes.shape(node) {
                Shape::Lock(l) => locks.push((l, name.clone())),
                Shape::Blob { lock, .. } => conflated.push(lock),
                // Each type the memory is viewed at is the same object.
                Shape::Void(entries) => {
                    stack.extend(entries.into_iter().map(|(_, n)| (n, name.clone())));
                }
                Shape::Struct { sid, fields } => {
                    for f in fields {
                        let field = self.program.types.structs[sid]
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

    /// Whether an object named `name` may name the locks it reaches. A variable whose declared
    /// type holds no lock reaches one only through conflated memory (a `void*` or a pointer
    /// made from an integer it was mixed with), and a variable of the library model or one the
    /// program only declares is the C library's or another program's (`stdin`, `optarg`): a
    /// lock is never named after such an unrelated object. Allocations and external memory have no declared type.
    fn lock_naming(&self, name: &RhoName) -> LockNaming {
        let RhoName::Var(v) = name else {
            return LockNaming::Holds;
        };
        let var = &self.program.vars[*v];
        if self.program.types.holds_lock(var.ty) {
            LockNaming::Holds
        } else if var.origin == Origin::Stub
            || matches!(var.kind, VarKind::Global { defined: false, .. })
        {
            LockNaming::Never
        } else {
            LockNaming::Fallback
        }
    }

    /// The name of a package's opened lock: the field path of the lock in objects of its struct
    /// type.
    fn package_name(&self, package: &Package) -> RhoName {
        let structs = &self.program.types.structs;
        let field_name = |(s, i): (crate::ir::ctypes::StructId, u32)| {
            structs[s]
                .fields
                .get(i as usize)
                .map(|x| x.name.clone())
                .unwrap_or_default()
        };
        let (fields, names): (&Vec<_>, Vec<String>) = match package {
            Package::Lock(fields) => (fields, fields.iter().map(|&f| field_name(f)).collect()),
            // The member's block is reached through the member: `gate->mu`.
            Package::Behind(outer, inner) => {
                let mut names: Vec<String> = outer.iter().map(|&f| field_name(f)).collect();
                for (k, &f) in inner.iter().enumerate() {
                    match (k, names.last_mut()) {
                        (0, Some(last)) => *last = format!("{last}->{}", field_name(f)),
                        _ => names.push(field_name(f)),
                    }
                }
                (outer, names)
            }
            Package::Thread | Package::Element => return RhoName::ThreadArgument,
            Package::Owned => return RhoName::OwnedObject,
            Package::Slot(..) => return RhoName::ThreadSlot,
            Package::Claim(_) => return RhoName::ClaimedSlot,
            Package::Range(..) => return RhoName::ThreadRange,
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
        for field in names {
            name = RhoName::Field {
                parent: Box::new(name),
                field,
            };
        }
        name
    }
}
