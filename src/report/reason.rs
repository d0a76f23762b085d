//! The one line that says why an audit reached its verdict, in English
//! (`tsume check`'s text, JSON and rows) and in Japanese (the KIF tree's
//! comment), from the typed [`Reason`].

use crate::check::Reason;
use crate::search::LimitHit;

/// The reason in English, with the composer's term where there is one.
pub fn english(r: &Reason) -> String {
    match r {
        Reason::Invalid(why) => why.clone(),
        Reason::MainSearchStopped(hit) => format!(
            "the main search stopped ({}) before deciding mate",
            hit.map_or("no progress".into(), |h| h.to_string())
        ),
        Reason::NoMate => "no mate (不詰)".into(),
        Reason::Cooked {
            ply,
            mv,
            length,
            cooks,
        } => {
            let mut s = format!(
                "余詰: at move {ply} {} also mates{}",
                mv.usi(),
                length.map_or(String::new(), |l| format!(" (in {l})"))
            );
            if *cooks > 1 {
                s.push_str(&format!(" — {cooks} cooks in all"));
            }
            s
        }
        Reason::EarlyMate { length, stated } => format!(
            "早詰: best play mates in {length} or less, shorter than the stated solution ({stated})"
        ),
        Reason::NotBestPlay { ply } => {
            format!("the main line is not best play at move {ply}; not confirmed")
        }
        Reason::CookBeyondInterposition {
            ply,
            mv,
            interposition,
        } => format!(
            "at move {ply} {} also mates, but the main line's interposition at move {interposition} may be futile (the solver's line is not proven exact): not confirmed",
            mv.usi()
        ),
        Reason::CookBeyondUndecided { ply, mv, undecided } => format!(
            "at move {ply} {} also mates, but an alternative at move {undecided} was not decided and the solver's line is not proven exact: not confirmed",
            mv.usi()
        ),
        Reason::CookNotCrossChecked { ply, mv } => format!(
            "at move {ply} {} also mates, but the main line was not cross-checked (variations off)",
            mv.usi()
        ),
        Reason::NotCrossChecked { length, limit } => format!(
            "mate, but the {length}-ply line is not proven shortest ({}) nor cross-checked (variations off)",
            limit.map_or("not proven".to_owned(), |h| format!("stopped by the {h}"))
        ),
        Reason::LeftoverBeyondInterposition {
            leftover,
            interposition,
        } => format!(
            "the main line ends with {} in hand, but its interposition at move {interposition} may be futile (the solver's line is not proven exact): not confirmed",
            leftover.sfen(true)
        ),
        Reason::Leftover(hand) => {
            format!("駒余り: the attacker ends with {} in hand", hand.sfen(true))
        }
        Reason::Undecided {
            ply,
            mv,
            limit,
            undecided,
        } => format!(
            "alternative {} at move {ply} not decided ({}){}",
            mv.map_or(String::new(), |m| m.usi()),
            limit.map_or("search budget".into(), |h| h.to_string()),
            if *undecided > 1 {
                format!(" — {undecided} alternatives undecided")
            } else {
                String::new()
            }
        ),
        Reason::Sound { length } => {
            format!("sound: mate in {length}, no cook, no pieces left over")
        }
    }
}

/// The limit in Japanese.
fn limit_japanese(hit: Option<LimitHit>) -> &'static str {
    match hit {
        None => "進展なし",
        Some(LimitHit::Nodes) => "局面数の上限",
        Some(LimitHit::Time) => "時間の上限",
        Some(LimitHit::Cancelled) => "中断",
        Some(LimitHit::Ply) => "手数の上限",
    }
}

/// The reason in Japanese (moves in USI notation, as in the English text),
/// written to follow the verdict's term (`余詰：…`, `完全作：…`).
pub fn japanese(r: &Reason) -> String {
    const UNCONFIRMED: &str =
        "本手順の合駒が無駄合かもしれない（解図の手順は最短が証明されていない）ため未確認";
    match r {
        Reason::Invalid(why) => format!("詰将棋の局面ではない：{why}"),
        Reason::MainSearchStopped(hit) => {
            format!("詰みの判定前に探索が止まった（{}）", limit_japanese(*hit))
        }
        Reason::NoMate => "攻方に詰みがない".into(),
        Reason::Cooked {
            ply,
            mv,
            length,
            cooks,
        } => {
            let mut s = format!(
                "{ply}手目 {} でも詰む{}",
                mv.usi(),
                length.map_or(String::new(), |l| format!("（{l}手）"))
            );
            if *cooks > 1 {
                s.push_str(&format!("、余詰は全部で{cooks}通り"));
            }
            s
        }
        Reason::EarlyMate { length, stated } => {
            format!("早詰：最善で{length}手以内に詰み、作意（{stated}手）より短い")
        }
        Reason::NotBestPlay { ply } => {
            format!("{ply}手目で本手順が最善でない：未確認")
        }
        Reason::CookBeyondInterposition {
            ply,
            mv,
            interposition,
        } => format!(
            "{ply}手目 {} でも詰むが、{interposition}手目の{UNCONFIRMED}",
            mv.usi()
        ),
        Reason::CookBeyondUndecided { ply, mv, undecided } => format!(
            "{ply}手目 {} でも詰むが、{undecided}手目の別の手が未解決で解図の手順は最短が証明されていないため未確認",
            mv.usi()
        ),
        Reason::CookNotCrossChecked { ply, mv } => format!(
            "{ply}手目 {} でも詰むが、本手順の変化を調べていない",
            mv.usi()
        ),
        Reason::NotCrossChecked { length, limit } => format!(
            "{length}手の手順は最短が証明されておらず（{}）、本手順の変化も調べていない",
            match limit {
                None => "証明できず",
                Some(_) => limit_japanese(*limit),
            }
        ),
        Reason::LeftoverBeyondInterposition {
            leftover,
            interposition,
        } => format!(
            "本手順は持駒 {} が余るが、{interposition}手目の{UNCONFIRMED}",
            leftover.sfen(true)
        ),
        Reason::Leftover(hand) => format!("攻方の持駒 {} が余る", hand.sfen(true)),
        Reason::Undecided {
            ply,
            mv,
            limit,
            undecided,
        } => format!(
            "{ply}手目の別の手 {} が未解決（{}）{}",
            mv.map_or(String::new(), |m| m.usi()),
            match limit {
                None => "探索の予算",
                Some(_) => limit_japanese(*limit),
            },
            if *undecided > 1 {
                format!("、未解決は全部で{undecided}手")
            } else {
                String::new()
            }
        ),
        Reason::Sound { length } => format!("{length}手詰、余詰なし、駒余りなし"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usi(s: &str) -> crate::rules::Move {
        let pos = crate::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
        crate::notation::usi::parse_move(&pos, s).unwrap()
    }

    #[test]
    fn a_cook_reads_the_same_in_both_languages() {
        let r = Reason::Cooked {
            ply: 1,
            mv: usi("S*4b"),
            length: Some(3),
            cooks: 2,
        };
        assert_eq!(
            english(&r),
            "余詰: at move 1 S*4b also mates (in 3) — 2 cooks in all"
        );
        assert_eq!(
            japanese(&r),
            "1手目 S*4b でも詰む（3手）、余詰は全部で2通り"
        );
    }

    #[test]
    fn sound_leftover_and_limits() {
        assert_eq!(
            english(&Reason::Sound { length: 3 }),
            "sound: mate in 3, no cook, no pieces left over"
        );
        assert_eq!(
            japanese(&Reason::Sound { length: 3 }),
            "3手詰、余詰なし、駒余りなし"
        );
        let hand = crate::parse_position("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")
            .unwrap()
            .hand(crate::Color::Black);
        assert_eq!(
            english(&Reason::Leftover(hand)),
            "駒余り: the attacker ends with S in hand"
        );
        assert_eq!(japanese(&Reason::Leftover(hand)), "攻方の持駒 S が余る");
        assert_eq!(
            english(&Reason::MainSearchStopped(Some(LimitHit::Time))),
            "the main search stopped (time limit) before deciding mate"
        );
        assert_eq!(
            japanese(&Reason::MainSearchStopped(None)),
            "詰みの判定前に探索が止まった（進展なし）"
        );
    }
}
