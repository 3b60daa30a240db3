//! The values of `--time-limit` and `--memory-limit`, as a user writes them: `90`, `1.5m`,
//! `2h` for a time (seconds when no unit is written), `800`, `512M`, `2G` for memory (MiB when
//! no unit is written; `K`, `M`, `G` and `T` are powers of 1024, with or without a trailing `B`
//! or `iB`). This module only reads the words; the budget itself is `solver::budget`.

use std::time::Duration;

/// A time limit: a positive number of seconds, or of minutes (`m`) or hours (`h`).
pub fn time(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = split_unit(text);
    let scale = match unit.to_ascii_lowercase().as_str() {
        "" | "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => return Err(format!("`{other}` is not a unit of time (s, m or h)")),
    };
    let seconds = positive(number)? * scale;
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("`{text}`: {e}"))
}

/// A memory limit in bytes: a positive number of MiB, or of KiB, MiB, GiB or TiB with a unit.
pub fn memory(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (number, unit) = split_unit(text);
    let unit = unit.to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or(unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let power = match unit {
        "K" => 1,
        "" | "M" => 2,
        "G" => 3,
        "T" => 4,
        other => return Err(format!("`{other}` is not a unit of memory (K, M, G or T)")),
    };
    let bytes = positive(number)? * 1024f64.powi(power);
    if bytes >= u64::MAX as f64 {
        return Err(format!("`{text}` is more memory than can be counted"));
    }
    Ok(bytes as u64)
}

/// `text` split where its number ends.
fn split_unit(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    (&text[..end], text[end..].trim())
}

fn positive(number: &str) -> Result<f64, String> {
    match number.parse::<f64>() {
        Ok(n) if n > 0.0 && n.is_finite() => Ok(n),
        Ok(_) => Err("a limit must be more than 0".to_string()),
        Err(_) => Err(format!("`{number}` is not a number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_seconds_unless_a_unit_says() {
        assert_eq!(time("90"), Ok(Duration::from_secs(90)));
        assert_eq!(time("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(time("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(time("0.25s"), Ok(Duration::from_millis(250)));
        assert!(time("0").is_err());
        assert!(time("-3").is_err());
        assert!(time("ten").is_err());
        assert!(time("3d")
            .unwrap_err()
            .contains("`d` is not a unit of time"));
    }

    #[test]
    fn memory_is_mib_unless_a_unit_says() {
        assert_eq!(memory("800"), Ok(800 << 20));
        assert_eq!(memory("512M"), Ok(512 << 20));
        assert_eq!(memory("2G"), Ok(2 << 30));
        assert_eq!(memory("2GiB"), Ok(2 << 30));
        assert_eq!(memory("1.5g"), Ok(3 << 29));
        assert_eq!(memory("64KB"), Ok(64 << 10));
        assert!(memory("0").is_err());
        assert!(memory("lots").is_err());
        assert!(memory("3P").unwrap_err().contains("not a unit of memory"));
        assert!(memory("99999999999T").is_err());
    }
}
