//! A textual rendering of the IR, for tests and for debugging the lowering.
//!
//! Notation: `#int` is a constant of type `int`; `@f` is the address of function `f`; `&lv` the
//! address of an lvalue; `*p` a dereference, `.f` a field and `[]` an array element;
//! `arith<T>(a, b)` any arithmetic of result type `T`; `(T)x` a cast. Variables are shown by name.
//! A counted loop is `loop HEAD: i = START; i OP BOUND; body B, step S, exit E`.

use crate::ir::ctypes::{Type, TypeId};
use crate::ir::{
    Base, Callee, CountedLoop, FuncId, LoopBound, LoopCmp, Lval, Operand, Origin, Program, Proj,
    Stmt, StmtKind, Term, VarId, VarKind,
};

/// The whole program: globals and string literals, then every function followed by its counted
/// loops.
pub fn dump(p: &Program) -> String {
    let mut out = String::new();
    for (id, v) in p.vars.iter_enumerated() {
        match v.kind {
            VarKind::Global {
                thread_local,
                defined,
                is_static,
            } => {
                out.push_str(&format!("global {}: {}", v.name, ty(p, v.ty)));
                for (on, word) in [
                    (is_static, " static"),
                    (thread_local, " thread_local"),
                    (!defined, " extern"),
                ] {
                    if on {
                        out.push_str(word);
                    }
                }
                out.push_str(addr(p, id));
                out.push('\n');
            }
            VarKind::StringLit => {
                out.push_str(&format!("string {}\n", v.name));
            }
            _ => {}
        }
    }
    for f in p.funcs.indices() {
        out.push_str(&dump_func(p, f));
        out.push_str(&dump_loops(p, f));
    }
    out
}

/// The counted loops of one function, one line each. [`dump_func`] leaves them out so that its
/// rendering stays that of the graph alone.
pub fn dump_loops(p: &Program, f: FuncId) -> String {
    let mut out = String::new();
    for l in &p.funcs[f].counted_loops {
        out.push_str(&format!("  {}\n", counted_loop(p, l)));
    }
    out
}

/// One counted loop: `loop bb1: i = 0; i < n; body bb2, step bb3, exit bb4`.
fn counted_loop(p: &Program, l: &CountedLoop) -> String {
    let i = &p.vars[l.counter].name;
    let op = match l.op {
        LoopCmp::Lt => "<",
        LoopCmp::Le => "<=",
        LoopCmp::Ne => "!=",
    };
    let bound = match l.bound {
        LoopBound::Const(k) => k.to_string(),
        LoopBound::Var(v) => p.vars[v].name.clone(),
        LoopBound::GlobalField { var, strukt, index } => format!(
            "{}.{}",
            p.vars[var].name, p.types.structs[strukt].fields[index as usize].name
        ),
        LoopBound::Member { ptr, strukt, index } => format!(
            "{}->{}",
            p.vars[ptr].name, p.types.structs[strukt].fields[index as usize].name
        ),
    };
    format!(
        "loop {}: {i} = {}; {i} {op} {bound}; body {}, step {}, exit {}",
        l.head, l.start, l.body, l.step, l.exit
    )
}

/// One function: its signature, parameters, locals and blocks.
pub fn dump_func(p: &Program, f: FuncId) -> String {
    let func = &p.funcs[f];
    let mut out = String::new();
    let origin = match func.origin {
        Origin::User => "",
        Origin::Stub => " stub",
        Origin::GlobalInit => " init",
    };
    out.push_str(&format!(
        "fn {}: {}{}{}{}\n",
        func.name,
        ty(p, func.ty),
        if func.is_static { " static" } else { "" },
        if func.defined { "" } else { " declared" },
        origin
    ));
    for v in &func.params {
        out.push_str(&format!(
            "  param {}: {}{}\n",
            p.vars[*v].name,
            ty(p, p.vars[*v].ty),
            addr(p, *v)
        ));
    }
    for v in &func.locals {
        out.push_str(&format!(
            "  local {}: {}{}\n",
            p.vars[*v].name,
            ty(p, p.vars[*v].ty),
            addr(p, *v)
        ));
    }
    for (id, b) in func.blocks.iter_enumerated() {
        out.push_str(&format!("  {id}:\n"));
        for s in &b.stmts {
            out.push_str(&format!("    {}\n", stmt(p, s)));
        }
        out.push_str(&format!("    {}\n", term(p, &b.term)));
    }
    out
}

/// Marks variables whose address is taken.
fn addr(p: &Program, v: VarId) -> &'static str {
    if p.vars[v].address_taken {
        " addr"
    } else {
        ""
    }
}

/// A C-like type, with function signatures spelled out.
fn ty(p: &Program, t: TypeId) -> String {
    match p.types.get(t) {
        Type::Function {
            ret,
            params,
            variadic,
        } => {
            let mut ps: Vec<String> = params.iter().map(|x| ty(p, *x)).collect();
            if *variadic {
                ps.push("...".into());
            }
            format!("{}({})", ty(p, *ret), ps.join(", "))
        }
        Type::Pointer(x) if matches!(p.types.get(*x), Type::Function { .. }) => {
            format!("({})*", ty(p, *x))
        }
        Type::Pointer(x) => format!("{}*", ty(p, *x)),
        Type::Array(x) => format!("{}[]", ty(p, *x)),
        _ => p.types.describe(t),
    }
}

/// One statement.
fn stmt(p: &Program, s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Assign { dst, src } => format!("{} = {}", lval(p, dst), operand(p, src)),
        StmtKind::Call { dst, callee, args } => {
            let callee = match callee {
                Callee::Direct(f) => p.funcs[*f].name.clone(),
                Callee::Indirect(op) => format!("(*{})", operand(p, op)),
            };
            let args: Vec<String> = args.iter().map(|a| operand(p, a)).collect();
            match dst {
                Some(d) => format!("{} = call {}({})", lval(p, d), callee, args.join(", ")),
                None => format!("call {}({})", callee, args.join(", ")),
            }
        }
        StmtKind::Eval(op) => format!("eval {}", operand(p, op)),
        StmtKind::Asm { operands } => {
            let ops: Vec<String> = operands.iter().map(|l| lval(p, l)).collect();
            format!("asm({})", ops.join(", "))
        }
    }
}

/// A terminator.
fn term(p: &Program, t: &Term) -> String {
    match t {
        Term::Goto(b) => format!("goto {b}"),
        Term::Branch {
            cond,
            then_block,
            else_block,
            ..
        } => {
            format!(
                "if {} then {then_block} else {else_block}",
                operand(p, cond)
            )
        }
        Term::Multi(bs, _) => {
            let bs: Vec<String> = bs.iter().map(|b| b.to_string()).collect();
            format!("switch {}", bs.join(", "))
        }
        Term::Return(Some(op), _) => format!("return {}", operand(p, op)),
        Term::Return(None, _) => "return".into(),
        Term::Exit => "exit".into(),
    }
}

/// An lvalue: `x`, `*p`, `(*p).f`, `a[]`.
fn lval(p: &Program, lv: &Lval) -> String {
    let mut out = match &lv.base {
        Base::Var(v) => p.vars[*v].name.clone(),
        Base::Deref(op) => {
            let inner = operand(p, op);
            let d = if matches!(&**op, Operand::Use(_)) {
                format!("*{inner}")
            } else {
                format!("*({inner})")
            };
            if lv.proj.is_empty() {
                d
            } else {
                format!("({d})")
            }
        }
    };
    for pr in &lv.proj {
        match pr {
            Proj::Field { strukt, index } => {
                let name = p.types.structs[*strukt]
                    .fields
                    .get(*index as usize)
                    .map_or("?", |f| f.name.as_str());
                out.push_str(&format!(".{name}"));
            }
            Proj::Index(_) => out.push_str("[]"),
            Proj::ConstIndex(k) => {
                out.push_str(&format!("[{k}]"));
            }
        }
    }
    out
}

/// An operand, in the notation of the module documentation.
fn operand(p: &Program, op: &Operand) -> String {
    match op {
        Operand::Const(t, _) => format!("#{}", ty(p, *t)),
        Operand::Use(lv) => lval(p, lv),
        Operand::AddrOf(lv) => format!("&{}", lval(p, lv)),
        Operand::Func(f) => format!("@{}", p.funcs[*f].name),
        Operand::Str(v) => p.vars[*v].name.clone(),
        Operand::Cast(t, o) => format!("({}){}", ty(p, *t), operand(p, o)),
        Operand::Arith(t, _, ops) => {
            let ops: Vec<String> = ops.iter().map(|o| operand(p, o)).collect();
            format!("arith<{}>({})", ty(p, *t), ops.join(", "))
        }
        Operand::VaArg(t, o) => format!("va_arg<{}>({})", ty(p, *t), operand(p, o)),
    }
}
