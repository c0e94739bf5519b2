export * from './players';
