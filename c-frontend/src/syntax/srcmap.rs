//! Positions in original source files, recovered from the line markers of preprocessed text.
//!
//! `lang-c` spans are byte offsets into the preprocessed text. gcc's `# N "file" flags` markers
//! say which original line the next text line is; one table per unit, built once, turns any
//! offset into `file:line:column` by binary search (lang-c's own helper rescans the text for every
//! call, which is far too slow for large units).

use rustc_hash::FxHashMap;
use solver::ids::IndexVec;

use crate::ir::{FileId, Pos};

/// The original files of a program, shared by all its units.
#[derive(Clone, Debug, Default)]
pub struct FileTable {
    pub names: IndexVec<FileId, String>,
    by_name: FxHashMap<String, FileId>,
}

impl FileTable {
    pub fn new() -> FileTable {
        FileTable::default()
    }

    pub fn intern(&mut self, name: &str) -> FileId {
        if let Some(&id) = self.by_name.get(name) {
            return id;
        }
        let id = self.names.push(name.to_string());
        self.by_name.insert(name.to_string(), id);
        id
    }

    pub fn name(&self, id: FileId) -> &str {
        &self.names[id]
    }
}

/// One line of preprocessed text: where it starts and which original line it is.
#[derive(Copy, Clone, Debug)]
struct LineInfo {
    offset: u32,
    file: FileId,
    line: u32,
    /// The line is text of a system header (its marker's flag 3): code of the C library or of
    /// a library installed on the system, not of the program.
    system: bool,
}

/// The position table of one preprocessed unit.
#[derive(Clone, Debug)]
pub struct SourceMap {
    lines: Vec<LineInfo>,
}

impl SourceMap {
    /// Builds the table of `text`, whose first lines belong to `unit_name` until a marker says
    /// otherwise. Marker lines themselves map to the line they announce.
    pub fn new(text: &str, unit_name: &str, files: &mut FileTable) -> SourceMap {
        let mut lines = Vec::new();
        let mut file = files.intern(unit_name);
        let mut line = 1u32;
        let mut system = false;
        let mut offset = 0usize;
        for raw in text.split_inclusive('\n') {
            lines.push(LineInfo {
                offset: offset as u32,
                file,
                line,
                system,
            });
            match parse_marker(raw) {
                Some(marker) => {
                    if let Some(name) = marker.file {
                        file = files.intern(&name);
                        system = marker.system;
                    }
                    line = marker.line;
                }
                None => line += 1,
            }
            offset += raw.len();
        }
        if lines.is_empty() {
            lines.push(LineInfo {
                offset: 0,
                file,
                line: 1,
                system: false,
            });
        }
        SourceMap { lines }
    }

    /// The original position of byte `offset` of the preprocessed text.
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset as u32;
        let i = match self.lines.binary_search_by_key(&offset, |l| l.offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let l = self.lines[i];
        Pos {
            file: l.file,
            line: l.line,
            column: offset.saturating_sub(l.offset) + 1,
        }
    }

    /// Whether byte `offset` of the preprocessed text is text of a system header.
    pub fn in_system_header(&self, offset: usize) -> bool {
        let offset = offset as u32;
        let i = match self.lines.binary_search_by_key(&offset, |l| l.offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        self.lines[i].system
    }
}

/// A line marker: the number of the next line, the file it is in if the marker names one, and
/// whether that file is a system header.
struct Marker {
    line: u32,
    file: Option<String>,
    system: bool,
}

/// Parses `# 12 "file.c" 1 3` (also `#line 12 "file.c"`): the number of the next line, the file
/// name if present, and gcc's flag 3 after it ("the following text comes from a system header").
fn parse_marker(line: &str) -> Option<Marker> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest
        .strip_prefix("line")
        .map(str::trim_start)
        .unwrap_or(rest);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let after = rest[digits.len()..].trim_start();
    let mut flags = "";
    let name = after.strip_prefix('"').and_then(|s| {
        let mut out = String::new();
        let mut chars = s.char_indices();
        while let Some((_, c)) = chars.next() {
            match c {
                '"' => {
                    flags = chars.as_str();
                    return Some(out);
                }
                '\\' => out.push(chars.next()?.1),
                c => out.push(c),
            }
        }
        None
    });
    let system = flags.split_whitespace().any(|f| f == "3");
    Some(Marker {
        line: n,
        file: name,
        system,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_set_file_and_line() {
        let text = "# 1 \"a.c\"\nint x;\n# 7 \"b.h\" 1\nint y;\nint z;\n# 3 \"a.c\" 2\nint w;\n";
        let mut files = FileTable::new();
        let map = SourceMap::new(text, "unit.i", &mut files);
        let at = |needle: &str| {
            let p = map.pos(text.find(needle).unwrap());
            (files.name(p.file).to_string(), p.line, p.column)
        };
        assert_eq!(at("int x"), ("a.c".into(), 1, 1));
        assert_eq!(at("int y"), ("b.h".into(), 7, 1));
        assert_eq!(at("z;"), ("b.h".into(), 8, 5));
        assert_eq!(at("int w"), ("a.c".into(), 3, 1));
    }

    #[test]
    fn flag_3_marks_system_header_text() {
        let text = "# 1 \"a.c\"\nint x;\n# 1 \"/usr/include/stdio.h\" 1 3 4\nint y;\n# 2 \"a.c\" 2\nint w;\n";
        let mut files = FileTable::new();
        let map = SourceMap::new(text, "unit.i", &mut files);
        let system = |needle: &str| map.in_system_header(text.find(needle).unwrap());
        assert!(!system("int x"));
        assert!(system("int y"));
        assert!(!system("int w"));
    }

    #[test]
    fn text_without_markers_belongs_to_the_unit() {
        let mut files = FileTable::new();
        let map = SourceMap::new("int a;\nint b;\n", "plain.i", &mut files);
        let p = map.pos(7);
        assert_eq!((files.name(p.file), p.line, p.column), ("plain.i", 2, 1));
    }
}
