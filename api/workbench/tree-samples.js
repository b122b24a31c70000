// Sample trees for every input format the tree page reads, each with the algorithm and
// options it is meant for. Values are the textbook answers the browser tests check.

import { treeText } from "./tree-editor.js";

const CS188_TEST = `class: "GraphGameTreeTest"
alg: "MinimaxAgent"
depth: "1"
num_agents: "2"

start_state: "A"
win_states: ""
lose_states: ""

successors: """
A Left B
A Right C
B Left D
B Right E
C Left F
C Right G
"""

evaluation: """
D 3
E 5
F 2
G 9
"""
`;

const EFG_GAME = `EFG 2 R "A sequential game" { "Max" "Min" } ""
p "" 1 1 "A" { "L" "R" } 0
p "" 2 1 "B" { "l" "r" } 0
t "" 1 "" { 3, -3 }
t "" 2 "" { 1, -1 }
p "" 2 2 "C" { "l" "r" } 0
t "" 3 "" { 0, 0 }
t "" 4 "" { 5, -5 }
`;

const EXPECTIMAX_TREE = {
  kind: "max",
  children: [
    { kind: "chance", children: [{ p: "1/2", value: 6 }, { p: "1/2", value: 4 }] },
    { kind: "chance", children: [{ p: "1/2", value: 0 }, { p: "1/2", value: 9 }] },
  ],
};

// Korf's shallow pruning: player 1 is assured 7 at root.1, so player 0 can get at most
// 10 - 7 = 3 there, less than the 4 it holds from root.0
const MAXN_TREE = {
  player: 0,
  children: [
    { player: 1, children: [{ value: [4, 3, 3] }, { value: [1, 2, 7] }] },
    { player: 1, children: [{ value: [2, 7, 1] }, { value: [6, 2, 2] }, { value: [5, 1, 4] }] },
  ],
};

export const SAMPLES = {
  aima: {
    title: "AIMA figure 5.2 (alpha-beta, value 3)",
    format: "json",
    text: "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]",
    algorithm: "alphabeta",
  },
  expectimax: {
    title: "Expectimax with Star1 bounds [0, 10] (value 5)",
    format: "json",
    text: treeText(EXPECTIMAX_TREE),
    algorithm: "expectimax",
    bounds: ["0", "10"],
  },
  maxn: {
    title: "max^n, three players, max_sum 10 (Korf's shallow pruning)",
    format: "json",
    text: treeText(MAXN_TREE),
    algorithm: "maxn",
    maxSum: "10",
  },
  cs188: {
    title: "CS188 GraphGameTreeTest (minimax, value 3)",
    format: "cs188",
    text: CS188_TEST,
    algorithm: "minimax",
  },
  efg: {
    title: "Gambit .efg, two-player zero-sum (value 1)",
    format: "efg",
    text: EFG_GAME,
    algorithm: "alphabeta",
  },
  single: {
    title: "A single root, to build a tree by clicking",
    format: "json",
    text: '{"value": 0}',
    algorithm: "alphabeta",
  },
};
