// Reads a KIF file with tsshogi, the parser of ShogiHome, and prints what
// it found as one JSON object: the start position (SFEN), the header
// fields tsume writes, the main line and every variation (変化) with the
// ply it starts at, its moves and its first move's comment. Each move is
// checked legal in the position tsshogi built (tsshogi itself reads KIF
// moves without that check).
//
//   node read_kif.mjs FILE.kif
//
// Used by tests/kif_tree.rs (which installs the pinned tsshogi beside a
// copy of this file); exits with 1 and a message on any error.
import fs from "node:fs";
import { importKIF, Move, Position, RecordMetadataKey } from "tsshogi";

const fail = (msg) => {
  console.error(`read_kif.mjs: ${msg}`);
  process.exit(1);
};

const record = importKIF(fs.readFileSync(process.argv[2], "utf-8"));
if (record instanceof Error) {
  fail(record.message);
}

// The moves from `node` along `next`, each checked legal.
const lineFrom = (node) => {
  const moves = [];
  for (let n = node; n; n = n.next) {
    if (!(n.move instanceof Move)) {
      fail(`ply ${n.ply}: not a move: ${JSON.stringify(n.move)}`);
    }
    const before = Position.newBySFEN(n.prev.sfen);
    if (!before || !before.isValidMove(n.move)) {
      fail(`ply ${n.ply}: ${n.move.usi} is not legal in ${n.prev.sfen}`);
    }
    moves.push(n.move.usi);
  }
  return moves;
};

const branches = [];
record.forEach((node) => {
  if (node.ply > 0 && !node.isFirstBranch) {
    branches.push({ ply: node.ply, moves: lineFrom(node), comment: node.comment });
  }
});
const meta = (key) => record.metadata.getStandardMetadata(key) ?? null;
console.log(
  JSON.stringify({
    sfen: record.initialPosition.sfen,
    title: meta(RecordMetadataKey.OPUS_NAME),
    author: meta(RecordMetadataKey.AUTHOR),
    length: meta(RecordMetadataKey.LENGTH),
    comment: record.first.comment,
    main: record.first.next ? lineFrom(record.first.next) : [],
    branches,
  }),
);
