export * from './history';
export * from './strategy';
export { requestOf, type MoveRequest } from './http';
export { STRONG_DEFAULTS, CONTRACT_PRIORS, contractValues, layAwayCandidates, type StrongView, type StrongSettings, type StrongChoice, strongChoice } from './strong';
export { knowledgeOf, sampleHands, type Knowledge } from './sampling';
