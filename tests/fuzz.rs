//! The readers never panic: random bytes, random text from the formats'
//! own alphabets, and random mutations of valid files. Every input gives
//! a problem or an error with a place.

use proptest::prelude::*;
use tsume::notation::csa::read_csa_all;
use tsume::notation::japanese::parse_move;
use tsume::notation::kif::{read_ki2, read_kif};
use tsume::problem::{load_bytes, InputFormat};

const FORMATS: [Option<InputFormat>; 5] = [
    None,
    Some(InputFormat::SfenLines),
    Some(InputFormat::Kif),
    Some(InputFormat::Ki2),
    Some(InputFormat::Csa),
];

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Load with every format; each result is a problem or a placed error.
fn load_all_ways(bytes: &[u8]) {
    for f in FORMATS {
        for r in load_bytes(bytes, None, f) {
            if let Err(e) = r {
                let _ = e.to_string();
            }
        }
    }
}

/// Characters that KIF, KI2, CSA and SFEN texts are made of.
const ALPHABET: &[char] = &[
    ' ', '　', '\n', '|', '+', '-', '*', '#', '/', ':', '：', '(', ')', 'v', '・', '▲', '△', '同',
    '打', '成', '不', '右', '左', '直', '上', '寄', '引', '歩', '香', '桂', '銀', '金', '角', '飛',
    '玉', 'と', '杏', '圭', '全', '馬', '龍', '一', '二', '三', '九', '十', '１', '５', '９', '0',
    '1', '2', '5', '9', 'P', 'I', 'F', 'U', 'K', 'A', 'L', 'O', 'b', 'w', 'k', 'p', 'g', '%', '\'',
    ',', '=', '"', '残', 'り', '全', '部', 'な', 'し', '持', '駒', '手', '数', '合', '割', 'ま',
    'で',
];

fn alphabet_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..400)
        .prop_map(|v| v.into_iter().collect())
}

/// A valid file with a few random byte edits (replace, insert, delete).
fn mutated(base: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = base.len();
    prop::collection::vec((0..len, any::<u8>(), 0..3u8), 1..8).prop_map(move |edits| {
        let mut b = base.clone();
        for (at, byte, op) in edits {
            let at = at.min(b.len().saturating_sub(1));
            match op {
                0 if !b.is_empty() => b[at] = byte,
                1 => b.insert(at, byte),
                _ if !b.is_empty() => {
                    b.remove(at);
                }
                _ => {}
            }
        }
        b
    })
}

/// A valid file with a few lines swapped, duplicated or dropped.
fn line_mutated(base: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let text = String::from_utf8(base).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let n = lines.len();
    prop::collection::vec((0..n, 0..n, 0..3u8), 1..4).prop_map(move |edits| {
        let mut l = lines.clone();
        for (a, b, op) in edits {
            let (a, b) = (
                a.min(l.len().saturating_sub(1)),
                b.min(l.len().saturating_sub(1)),
            );
            match op {
                0 if !l.is_empty() => l.swap(a, b),
                1 if !l.is_empty() => {
                    let x = l[a].clone();
                    l.insert(b, x);
                }
                _ if !l.is_empty() => {
                    l.remove(a);
                }
                _ => {}
            }
        }
        l.join("\n").into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        load_all_ways(&bytes);
    }

    #[test]
    fn random_format_text(text in alphabet_text()) {
        let _ = read_kif(&text);
        let _ = read_ki2(&text);
        let _ = read_csa_all(&text);
        load_all_ways(text.as_bytes());
    }

    #[test]
    fn random_japanese_moves(text in prop::collection::vec(prop::sample::select(ALPHABET), 0..12)) {
        let text: String = text.into_iter().collect();
        let pos = tsume::parse_position("startpos").unwrap();
        let _ = parse_move(&pos, &text, None);
        let _ = parse_move(&pos, &text, tsume::Square::from_usi("7f"));
    }

    #[test]
    fn mutated_kif(bytes in mutated(fixture("canonical.kif"))) {
        load_all_ways(&bytes);
    }

    #[test]
    fn mutated_real_world_kif(bytes in mutated(fixture("zukou-050.kif"))) {
        load_all_ways(&bytes);
    }

    #[test]
    fn mutated_sjis_kif(bytes in mutated(fixture("zukou-050-sjis.kif"))) {
        load_all_ways(&bytes);
    }

    #[test]
    fn mutated_ki2(bytes in mutated(fixture("zukou-050.ki2"))) {
        load_all_ways(&bytes);
    }

    #[test]
    fn mutated_csa(bytes in mutated(fixture("zukou-050.csa"))) {
        load_all_ways(&bytes);
    }

    #[test]
    fn mutated_sfen_lines(bytes in mutated(fixture("sample.sfen"))) {
        load_all_ways(&bytes);
    }

    #[test]
    fn line_mutated_files(kif in line_mutated(fixture("canonical.kif")), csa in line_mutated(fixture("zukou-050.csa")), ki2 in line_mutated(fixture("zukou-050.ki2"))) {
        load_all_ways(&kif);
        load_all_ways(&csa);
        load_all_ways(&ki2);
    }
}
