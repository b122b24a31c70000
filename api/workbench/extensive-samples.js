// Sample games of the extensive-form page: Gambit .efg text or Arbiter's JSON form
// (docs/extensive.md), each with the answer a reader can check by hand.

// Kuhn poker as Gambit writes it (games/extensive/poker.py builds the same game): worth -1/18
// to player 1; player 2 calls a bet with the queen one time in three.
const KUHN = `EFG 2 R "Kuhn poker" { "Player 1" "Player 2" }
""

c "deal" 1 "" { "JQ" 1/6 "JK" 1/6 "QJ" 1/6 "QK" 1/6 "KJ" 1/6 "KQ" 1/6 } 0
p "" 1 1 "J" { "check" "bet" } 0
p "" 2 1 "Q, check" { "check" "bet" } 0
t "" 1 "" { -1, 1 }
p "" 1 2 "J, check, bet" { "fold" "call" } 0
t "" 2 "" { -1, 1 }
t "" 3 "" { -2, 2 }
p "" 2 2 "Q, bet" { "fold" "call" } 0
t "" 4 "" { 1, -1 }
t "" 5 "" { -2, 2 }
p "" 1 1 0
p "" 2 3 "K, check" { "check" "bet" } 0
t "" 6 "" { -1, 1 }
p "" 1 2 0
t "" 7 "" { -1, 1 }
t "" 8 "" { -2, 2 }
p "" 2 4 "K, bet" { "fold" "call" } 0
t "" 9 "" { 1, -1 }
t "" 10 "" { -2, 2 }
p "" 1 3 "Q" { "check" "bet" } 0
p "" 2 5 "J, check" { "check" "bet" } 0
t "" 11 "" { 1, -1 }
p "" 1 4 "Q, check, bet" { "fold" "call" } 0
t "" 12 "" { -1, 1 }
t "" 13 "" { 2, -2 }
p "" 2 6 "J, bet" { "fold" "call" } 0
t "" 14 "" { 1, -1 }
t "" 15 "" { 2, -2 }
p "" 1 3 0
p "" 2 3 0
t "" 16 "" { -1, 1 }
p "" 1 4 0
t "" 17 "" { -1, 1 }
t "" 18 "" { -2, 2 }
p "" 2 4 0
t "" 19 "" { 1, -1 }
t "" 20 "" { -2, 2 }
p "" 1 5 "K" { "check" "bet" } 0
p "" 2 5 0
t "" 21 "" { 1, -1 }
p "" 1 6 "K, check, bet" { "fold" "call" } 0
t "" 22 "" { -1, 1 }
t "" 23 "" { 2, -2 }
p "" 2 6 0
t "" 24 "" { 1, -1 }
t "" 25 "" { 2, -2 }
p "" 1 5 0
p "" 2 1 0
t "" 26 "" { 1, -1 }
p "" 1 6 0
t "" 27 "" { -1, 1 }
t "" 28 "" { 2, -2 }
p "" 2 2 0
t "" 29 "" { 1, -1 }
t "" 30 "" { 2, -2 }
`;

// Matching pennies as a tree: player 2 chooses without seeing player 1's coin (one
// information set of two nodes), so the tree is the matrix game: value 0, each coin 1/2.
const PENNIES = `EFG 2 R "Matching pennies in extensive form" { "Player 1" "Player 2" }
"Player 2 does not see player 1's coin."

p "" 1 1 "1 chooses" { "heads" "tails" } 0
p "" 2 1 "2 chooses" { "heads" "tails" } 0
t "" 1 "match" { 1, -1 }
t "" 2 "no match" { -1, 1 }
p "" 2 1 0
t "" 2
t "" 1
`;

const raise = (to, payoffs) => ["raise", {
  player: 1, infoset: "raised", actions: [["meet", { payoffs: to }], ["pass", { payoffs }]],
}];

// Myerson's card game (Myerson 1991, section 2.1): worth 1/3 to player 1, who raises red
// always and black one time in three; player 2 meets two times in three.
const MYERSON = {
  title: "Myerson's card game",
  players: ["1", "2"],
  root: { chance: [
    ["red", "1/2", { player: 0, infoset: "red", actions: [
      raise([2, -2], [1, -1]), ["fold", { payoffs: [1, -1] }]] }],
    ["black", "1/2", { player: 0, infoset: "black", actions: [
      raise([-2, 2], [1, -1]), ["fold", { payoffs: [-1, 1] }]] }],
  ] },
};

// An entry game that is not zero-sum (docs/extensive.md): no value, only payoffs.
const ENTRY = {
  title: "Entry deterrence",
  players: ["entrant", "incumbent"],
  root: { player: 0, infoset: "enter?", actions: [
    ["out", { payoffs: [1, 0] }],
    ["in", { player: 1, infoset: "entered", actions: [
      ["fight", { payoffs: [-1, -1] }], ["share", { payoffs: [2, 2] }]] }],
  ] },
};

// Leduc hold'em with OpenSpiel's rules, built as games/extensive/poker.py builds it (the same
// 9457 nodes and 936 information sets, worth about -0.0856 to player 1): six cards, two suits
// of J < Q < K; an ante of 1; a betting round (raises of 2), a public card, a second round
// (raises of 4); at most two raises a round; a fold only facing a raise.
const CARDS = ["J1", "J2", "Q1", "Q2", "K1", "K2"];

function leducBets(privateCards, publicCard, mover, put, raises, calls, history) {
  const round = publicCard === null ? 0 : 1;
  const facing = put[1 - mover] > put[mover];
  const actions = [...(facing ? ["fold"] : []), "call", ...(raises < 2 ? ["raise"] : [])];
  const seen = CARDS[privateCards[mover]] + (publicCard === null ? "" : ` | ${CARDS[publicCard]}`);
  const node = { player: mover, infoset: `${seen} | ${history.join(" ") || "-"}`, actions: [] };
  for (const action of actions) {
    const after = [...history, action === "raise" ? "r" : action[0]];
    let child;
    if (action === "fold") {
      child = { payoffs: paid(1 - mover, put[mover]) }; // the folder loses what they put in
    } else {
      const stakes = [...put];
      stakes[mover] = put[1 - mover];
      if (action === "raise") {
        stakes[mover] += round === 0 ? 2 : 4;
        child = leducBets(privateCards, publicCard, 1 - mover, stakes, raises + 1, 0, after);
      } else if (!(raises === 0 ? calls + 1 === 2 : calls + 1 === 1)) {
        child = leducBets(privateCards, publicCard, 1 - mover, stakes, raises, calls + 1, after);
      } else if (publicCard === null) {
        const left = CARDS.map((_, c) => c).filter((c) => !privateCards.includes(c));
        // named by the deal and the bets: no two nodes share a name (Gambit's rule)
        const dealt = `${CARDS[privateCards[0]]} v ${CARDS[privateCards[1]]}`;
        child = { name: `public card: ${dealt}, ${after.join(" ")}`,
                  chance: left.map((c) => [CARDS[c], "1/4",
          leducBets(privateCards, c, 0, stakes, 0, 0, [...after, "/"])]) };
      } else {
        child = { payoffs: showdown(privateCards, publicCard, stakes[0]) };
      }
    }
    node.actions.push([action, child]);
  }
  return node;
}

function paid(winner, amount) {
  const won = winner === 0 ? amount : -amount;
  return [won, -won];
}

function showdown(privateCards, publicCard, stake) {
  const ranks = privateCards.map((card) => Math.floor(card / 2));
  const pairs = ranks.map((rank) => rank === Math.floor(publicCard / 2));
  if (pairs[0] !== pairs[1]) return paid(pairs[0] ? 0 : 1, stake);
  if (ranks[0] === ranks[1]) return [0, 0];
  return paid(ranks[0] > ranks[1] ? 0 : 1, stake);
}

function leduc() {
  const cards = CARDS.map((_, c) => c);
  return {
    title: "Leduc hold'em",
    players: ["Player 1", "Player 2"],
    root: { name: "player 1's card", chance: cards.map((first) => [CARDS[first], "1/6", {
      name: `player 2's card, player 1 holding ${CARDS[first]}`,
      chance: cards.filter((c) => c !== first).map((second) => [CARDS[second], "1/5",
        leducBets([first, second], null, 0, [1, 1], 0, 0, [])]),
    }]) },
  };
}

// name -> {label, text (the input as typed), method, note}
export const SAMPLES = {
  kuhn: { label: "Kuhn poker (.efg)", text: () => KUHN, method: "auto",
          note: "Three cards, one bet: worth -1/18 to player 1 (Kuhn 1950)." },
  pennies: { label: "Matching pennies as a tree (.efg)", text: () => PENNIES, method: "auto",
             note: "Player 2 cannot see player 1's coin: value 0, each side 1/2 and 1/2." },
  myerson: { label: "Myerson's card game (JSON)", text: () => JSON.stringify(MYERSON, null, 1),
             method: "auto", note: "Worth 1/3 to player 1, who bluffs with black one time in three." },
  entry: { label: "Entry deterrence, not zero-sum (JSON)", text: () => JSON.stringify(ENTRY, null, 1),
           method: "auto", note: "Not zero-sum: Lemke's algorithm finds one equilibrium, its payoffs shown." },
  leduc: { label: "Leduc hold'em (JSON, 9457 nodes)", text: () => JSON.stringify(leduc()), method: "cfr_plus",
           note: "Too big to draw; the exact LP takes several seconds (value about -0.0856), CFR+ converges in a few hundred iterations." },
};
