export * from './history';
export * from './strategy';
