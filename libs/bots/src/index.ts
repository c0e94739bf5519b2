export * from './history';
export * from './strategy';
export { STRONG_DEFAULTS, CONTRACT_PRIORS, contractValues, layAwayCandidates, type StrongView, type StrongSettings, type StrongChoice, strongChoice } from './strong';
export { knowledgeOf, sampleHands, type Knowledge } from './sampling';
