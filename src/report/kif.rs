//! The audit as a KIF solution tree (`tsume check --format kif`, `tsume
//! report --out x.kif`): the main line (本手順) with every line the audit
//! found hung from the move it replaces — cooks (余詰) at their attacker
//! move, defender alternatives (変同, 変長, ...) with their mating lines,
//! transpositions and detours (手順前後, 迂回), other mates at the last
//! move (最終手余詰). The tree itself is written by
//! [`crate::notation::kif_write::write_kif_tree`]; this file only builds
//! it from an [`Audit`].

use crate::check::Audit;
use crate::notation::japanese::{line_names, Style};
use crate::notation::kif_write::write_kif_tree;
use crate::notation::tree::{Tree, TreeMove};
use crate::notation::Record;
use crate::problem::Problem;

/// The audit's solution tree. Every cook is a variation at its ply with
/// the comment `余詰` and its detail; every note that carries a mating
/// line (its `length` is known) is one with the note's term (`変同`,
/// `手順前後`, ...) and its detail. Notes without a mating line (an
/// undecided alternative, an escape) are not lines of the tree. The start
/// position carries the verdict and, for a no-mate, the refutations.
pub fn solution_tree(audit: &Audit) -> Tree {
    let mut tree = Tree::from_moves(&audit.moves);
    tree.comments.push(format!(
        "{}（{}）：{}",
        audit.verdict.japanese(),
        audit.verdict.as_str(),
        super::reason::japanese(&audit.reason)
    ));
    for (c, d) in &audit.refutations {
        let moves: Vec<_> = std::iter::once(*c).chain(*d).collect();
        let names = line_names(&audit.start, &moves, None, Style::Ki2, false);
        tree.comments.push(match d {
            Some(_) => format!("{} {} で不詰", names[0], names[1]),
            None => format!("{}: no refutation found within the limits", names[0]),
        });
    }
    let line = |moves: &[crate::Move]| -> Vec<TreeMove> {
        moves.iter().map(|&m| TreeMove::new(m)).collect()
    };
    for c in &audit.cooks {
        tree.add_variation(c.ply, line(&c.line), vec!["余詰".into(), c.detail.clone()]);
    }
    for n in audit
        .notes
        .iter()
        .filter(|n| n.length.is_some() && !n.moves.is_empty())
    {
        tree.add_variation(
            n.ply,
            line(&n.moves),
            vec![n.kind.japanese().into(), n.detail.clone()],
        );
    }
    tree
}

/// The audit as KIF: the header (作品名, 作者 when the problem gives them,
/// 手数 = the computed length, the problem's other fields), the start
/// diagram with both hands written out (後手の持駒 in full), and the
/// [`solution_tree`].
pub fn kif(problem: &Problem, audit: &Audit) -> String {
    let record = Record {
        title: problem.title.clone(),
        author: problem.author.clone(),
        length: audit.length().map(|n| n as u32),
        fields: problem.fields.clone(),
        ..Record::new(audit.start.clone())
    };
    write_kif_tree(&record, &solution_tree(audit))
}
