//! The checks of the existential annotations of `locksmith.h` (paper §3.3): what a program that
//! declares a struct existential, packs its objects and unpacks them promises, checked where the
//! generator sees each statement. Each misuse is one [`Annotation`] with its position; none
//! changes a label or an event (the packages' opened locks come from [`unpacks`], written or
//! inferred alike).
//!
//! [`unpacks`]: crate::analyses::unpacks

use super::{Frame, Gen};
use crate::analyses::unpacks;
use crate::diagnostics::{Annotation, AnnotationKind};
use crate::ir::ctypes::{StructId, Type};
use crate::ir::{FuncId, Lval, Operand, Pos, Proj};
use crate::model::Intrinsic;

impl Gen<'_> {
    fn annotate(&mut self, pos: Pos, kind: AnnotationKind) {
        self.annotations.push(Annotation { pos, kind });
    }

    fn tag_of(&self, s: StructId) -> String {
        self.program.types.structs[s]
            .tag
            .clone()
            .unwrap_or_else(|| "(anonymous)".into())
    }

    fn field_name(&self, s: StructId, i: u32) -> String {
        self.program.types.structs[s]
            .fields
            .get(i as usize)
            .map(|f| f.name.clone())
            .unwrap_or_default()
    }

    /// The declared struct and guarded field an lvalue names last, if any.
    fn guarded_field(&self, lv: &Lval) -> Option<(StructId, u32)> {
        let Some(&Proj::Field { strukt, index }) = lv.proj.last() else {
            return None;
        };
        let guarded = self.analysed.existential.get(&strukt)?;
        guarded.contains(&index).then_some((strukt, index))
    }

    /// A call of `LOCKSMITH_PACK`, `LOCKSMITH_UNPACK` or `LOCKSMITH_END_UNPACK` (any other call
    /// is left alone): the pointer must point to a declared struct; a pack must come before the
    /// object is published; an end needs its start.
    pub(super) fn annotation_call(&mut self, frame: &Frame, f: FuncId, args: &[Operand], pos: Pos) {
        let which = Intrinsic::from_name(&self.program.funcs[f].name);
        if !matches!(
            which,
            Some(Intrinsic::Pack | Intrinsic::Unpack | Intrinsic::EndUnpack)
        ) || !self.techniques.has(solver::Technique::Existentials)
        {
            return;
        }
        let Some(arg) = args.first() else { return };
        let inner = arg.without_casts();
        let pointee = self.program.types.pointee(self.program.operand_type(inner));
        let strukt = pointee.and_then(|t| match self.program.types.get(t) {
            Type::Struct(s) => Some(*s),
            _ => None,
        });
        if !strukt.is_some_and(|s| self.analysed.existential.contains_key(&s)) {
            let strukt = strukt.map(|s| self.tag_of(s));
            self.annotate(pos, AnnotationKind::NotDeclared { strukt });
            return;
        }
        match which {
            Some(Intrinsic::Pack) if !self.is_unique(frame, arg) => {
                self.annotate(pos, AnnotationKind::PackAfterPublish)
            }
            Some(Intrinsic::EndUnpack) => {
                let open = unpacks::annotated_pointer(self.program, frame.func, arg)
                    .is_some_and(|(v, _)| unpacks::unpack_open(&frame.own, v));
                if !open {
                    let var = match inner {
                        Operand::Use(Lval {
                            base: crate::ir::Base::Var(v),
                            ..
                        }) => self.program.vars[*v].name.clone(),
                        _ => "?".into(),
                    };
                    self.annotate(pos, AnnotationKind::EndWithoutStart { var });
                }
            }
            _ => {}
        }
    }

    /// An assignment to `dst`: a pointer whose written unpack is open must not change.
    pub(super) fn annotation_store(&mut self, frame: &Frame, dst: &Lval) {
        if let (crate::ir::Base::Var(v), true) = (&dst.base, dst.proj.is_empty()) {
            if unpacks::unpack_open(&frame.own, *v) {
                let var = self.program.vars[*v].name.clone();
                self.annotate(dst.pos, AnnotationKind::AssignedInUnpack { var });
            }
        }
    }

    /// A shared access of `lv` outside every inferred unpack: a guarded field of a declared
    /// struct must be inside a written unpack.
    pub(super) fn annotation_access(&mut self, frame: &Frame, lv: &Lval) {
        if frame.inline.is_some() {
            return;
        }
        let Some((s, i)) = self.guarded_field(lv) else {
            return;
        };
        if !unpacks::in_written_unpack(self.program, frame.func, &frame.own, lv) {
            let (strukt, field) = (self.tag_of(s), self.field_name(s, i));
            self.annotate(lv.pos, AnnotationKind::OutsideUnpack { strukt, field });
        }
    }

    /// `&lv`: a pointer to a guarded field lets its data escape the package.
    pub(super) fn annotation_address(&mut self, frame: &Frame, lv: &Lval) {
        if frame.inline.is_some() {
            return;
        }
        if let Some((s, i)) = self.guarded_field(lv) {
            let (strukt, field) = (self.tag_of(s), self.field_name(s, i));
            self.annotate(lv.pos, AnnotationKind::Escape { strukt, field });
        }
    }
}
