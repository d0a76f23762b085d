//! Shared by the integration tests: the replay check of a printed line,
//! and the rows of the answer key.

use std::collections::HashMap;
use tsume::rules::{MoveList, Position};

/// Replay `line` from `pos` (attacker to move): every move legal, every
/// attacker move a check, an odd number of plies, and at the end the
/// defender in check with no evasion, or (when `futile_left`) only futile
/// interpositions left.
pub fn check_line(pos: &Position, line: &[tsume::Move], futile_left: bool) -> Result<(), String> {
    let attacker = pos.side_to_move();
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            return Err(format!("ply {}: {} is illegal", i + 1, m.usi()));
        }
        let attacking = p.side_to_move() == attacker;
        p.do_move(m);
        if attacking && !p.in_check() {
            return Err(format!("ply {}: {} does not check", i + 1, m.usi()));
        }
    }
    if line.len().is_multiple_of(2) || !p.in_check() {
        return Err(format!("{} plies: not a mating line", line.len()));
    }
    let mut ev = MoveList::new();
    p.evasion_moves(&mut ev);
    if ev.is_empty() || (futile_left && only_futile_left(&p, &mut HashMap::new())) {
        Ok(())
    } else {
        Err(format!("not mate at the end: {:?}", ev))
    }
}

/// Every evasion of `p` (defender to move, in check) is a futile
/// interposition judged against nothing (W = 0): some recapture on its
/// square that checks leaves, with the captured piece out of play (a
/// dropped one back in the defender's hand, a moved one out of the game),
/// again a position with no evasion or only such ones. From move
/// generation alone, independent of the library's rule (`seen`: answers
/// so far).
fn only_futile_left(p: &Position, seen: &mut HashMap<u64, bool>) -> bool {
    if let Some(&a) = seen.get(&p.key()) {
        return a;
    }
    let mut ev = MoveList::new();
    p.evasion_moves(&mut ev);
    let attacker = p.side_to_move().flip();
    let a = ev.iter().all(|&d| {
        let mut q = p.clone();
        q.do_move(d);
        let mut checks = MoveList::new();
        q.check_moves(&mut checks);
        checks.iter().filter(|x| x.to() == d.to()).any(|&x| {
            let mut r = q.clone();
            r.do_move(x);
            let mut s = r.to_setup();
            let kind = r.captured_piece().expect("a capture").kind().unpromote();
            s.hands[attacker].remove(kind);
            if d.is_drop() {
                s.hands[attacker.flip()].add(kind);
            }
            Position::from_setup(&s).is_ok_and(|r| only_futile_left(&r, seen))
        })
    });
    seen.insert(p.key(), a);
    a
}

/// One row of the answer key (`tests/data/answers.tsv`).
#[allow(dead_code)]
pub struct KeyRow {
    /// `set/id`.
    pub id: String,
    pub sfen: String,
    /// `mate`, `nomate` or `unresolved`.
    pub verdict: String,
    /// The plain-minimax length, for a mate.
    pub minimax: Option<usize>,
}

/// The rows of the answer key.
#[allow(dead_code)]
pub fn answer_key() -> Vec<KeyRow> {
    include_str!("../data/answers.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            KeyRow {
                id: format!("{}/{}", f[0], f[1]),
                sfen: f[2].to_string(),
                verdict: f[3].to_string(),
                minimax: f[4].parse().ok(),
            }
        })
        .collect()
}
