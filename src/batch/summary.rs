//! The summary of a batch: counts per verdict, times, slowest problems and
//! failures. Built row by row; the CLI renders it.

use super::row::{Row, RowVerdict};
use std::collections::BTreeMap;

/// How many failures a summary keeps (the rows keep them all).
pub const MAX_FAILURES: usize = 1000;
/// How many of the slowest problems a summary keeps.
pub const SLOWEST: usize = 5;

/// A problem in a summary list: where it is and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Brief {
    /// Row index.
    pub index: usize,
    /// `file:line`.
    pub source: String,
    /// Problem id.
    pub id: String,
    /// Verdict.
    pub verdict: RowVerdict,
    /// Seconds spent.
    pub seconds: f64,
    /// The row's `error` column.
    pub error: String,
}

impl Brief {
    fn of(row: &Row) -> Brief {
        Brief {
            index: row.index,
            source: row.source.clone(),
            id: row.id.clone(),
            verdict: row.verdict,
            seconds: row.seconds,
            error: row.error.clone(),
        }
    }
}

/// Unnecessary pieces (不要駒) and cook stoppers over the rows that were
/// examined for them: pieces, and problems with at least one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceCounts {
    /// Problems whose pieces were examined.
    pub problems: usize,
    /// Unnecessary pieces, and problems with any.
    pub unnecessary: (usize, usize),
    /// Cook stoppers, and problems with any.
    pub cook_stoppers: (usize, usize),
    /// Pieces a limit left undecided, and problems with any.
    pub unknown: (usize, usize),
}

impl PieceCounts {
    fn add(&mut self, row: &Row) {
        if row.unnecessary.is_empty() {
            return;
        }
        self.problems += 1;
        let count = |n: usize, into: &mut (usize, usize)| {
            into.0 += n;
            into.1 += usize::from(n > 0);
        };
        let tokens: Vec<&str> = row
            .unnecessary
            .split_whitespace()
            .filter(|&t| t != "-")
            .collect();
        count(
            tokens.iter().filter(|t| !t.ends_with('?')).count(),
            &mut self.unnecessary,
        );
        count(
            tokens.iter().filter(|t| t.ends_with('?')).count(),
            &mut self.unknown,
        );
        count(
            row.cook_stoppers.split_whitespace().count(),
            &mut self.cook_stoppers,
        );
    }

    /// `不要駒 2 in 1 problem, ...` (empty when no problem was examined).
    pub fn text(&self) -> String {
        if self.problems == 0 {
            return String::new();
        }
        let of =
            |(n, p): (usize, usize)| format!("{n} in {p} problem{}", if p == 1 { "" } else { "s" });
        format!(
            "{} problems examined: unnecessary (不要駒) {}, cook stoppers (余詰防止駒) {}, undecided {}",
            self.problems,
            of(self.unnecessary),
            of(self.cook_stoppers),
            of(self.unknown)
        )
    }
}

/// Rows per column that holds a finding, whatever their verdict: what a
/// generated set is known to contain (a row with pieces left over that is
/// also cooked counts in both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColumnCounts {
    /// Rows with a main line (`length`).
    pub length: usize,
    /// Rows whose plain-minimax length (`plain_length`) is longer than the
    /// main line: only futile interpositions (無駄合) make the defence
    /// longer.
    pub plain_longer: usize,
    /// Rows whose attacker ends with pieces in hand (`leftover`, 駒余り).
    pub leftover: usize,
    /// Rows with a cook (`cooks`, 余詰).
    pub cooks: usize,
}

impl ColumnCounts {
    fn add(&mut self, row: &Row) {
        let Some(len) = row.length else { return };
        self.length += 1;
        self.plain_longer += usize::from(row.plain_length.is_some_and(|p| p > len));
        self.leftover += usize::from(!row.leftover.is_empty());
        self.cooks += usize::from(!row.cooks.is_empty());
    }

    /// `length 12, plain_length longer 1, leftover 3` (and `cooks N` when
    /// `audited`); empty without a main line.
    pub fn text(&self, audited: bool) -> String {
        if self.length == 0 {
            return String::new();
        }
        let mut t = format!(
            "length {}, plain_length longer {}, leftover {}",
            self.length, self.plain_longer, self.leftover
        );
        if audited {
            t.push_str(&format!(", cooks {}", self.cooks));
        }
        t
    }
}

/// Counts and times over rows.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Rows per verdict.
    pub counts: BTreeMap<RowVerdict, usize>,
    /// The slowest problems, slowest first.
    pub slowest: Vec<Brief>,
    /// Rows that are not `mate`/`sound`, in the order added (at most
    /// [`MAX_FAILURES`]).
    pub failures: Vec<Brief>,
    /// All rows that are not `mate`/`sound`.
    pub failures_total: usize,
    /// Unnecessary pieces and cook stoppers (`--check`).
    pub pieces: PieceCounts,
    /// Rows per column that holds a finding.
    pub columns: ColumnCounts,
    /// Per-problem times in microseconds (rows have that precision) and
    /// how many rows took each: memory bounded by the distinct times,
    /// not by the rows, for the exact median of a run of any length.
    micros: BTreeMap<u64, usize>,
    rows: usize,
    total_seconds: f64,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary::default()
    }

    /// A summary of `rows`.
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Summary {
        let mut s = Summary::new();
        for r in rows {
            s.add(r);
        }
        s
    }

    /// Count one row.
    pub fn add(&mut self, row: &Row) {
        *self.counts.entry(row.verdict).or_default() += 1;
        let micros = (row.seconds.max(0.0) * 1e6).round() as u64;
        *self.micros.entry(micros).or_default() += 1;
        self.rows += 1;
        self.total_seconds += row.seconds;
        self.pieces.add(row);
        self.columns.add(row);
        if !row.verdict.is_ok() {
            self.failures_total += 1;
            if self.failures.len() < MAX_FAILURES {
                self.failures.push(Brief::of(row));
            }
        }
        let pos = self
            .slowest
            .iter()
            .position(|b| row.seconds > b.seconds)
            .unwrap_or(self.slowest.len());
        if pos < SLOWEST {
            self.slowest.insert(pos, Brief::of(row));
            self.slowest.truncate(SLOWEST);
        }
    }

    /// Rows counted.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Rows with a verdict.
    pub fn count(&self, v: RowVerdict) -> usize {
        self.counts.get(&v).copied().unwrap_or(0)
    }

    /// The sum of the per-problem times.
    pub fn total_seconds(&self) -> f64 {
        self.total_seconds
    }

    /// The median per-problem time (0 with no rows), to the microsecond.
    pub fn median_seconds(&self) -> f64 {
        let n = self.rows;
        if n == 0 {
            return 0.0;
        }
        // The times of ranks n/2 - 1 and n/2 (0-based) in sorted order.
        let nth = |rank: usize| {
            let mut seen = 0;
            for (&us, &count) in &self.micros {
                seen += count;
                if seen > rank {
                    return us as f64 / 1e6;
                }
            }
            0.0
        };
        if n % 2 == 1 {
            nth(n / 2)
        } else {
            (nth(n / 2 - 1) + nth(n / 2)) / 2.0
        }
    }

    /// Whether every row is `mate` or `sound` (exit code 0).
    pub fn all_ok(&self) -> bool {
        self.failures_total == 0
    }

    /// `mate 12, nomate 1, ...` for the verdicts present.
    pub fn counts_text(&self) -> String {
        RowVerdict::ALL
            .iter()
            .filter(|&&v| self.count(v) > 0)
            .map(|&v| format!("{v} {}", self.count(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
