// libs/solver: a double-dummy solver for Bismarck. See README.md for what it computes and how.
export { solve, SolverBudgetExceeded, type Position, type SolveOptions, type Solved } from './solve';
