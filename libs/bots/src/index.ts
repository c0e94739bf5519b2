export * from './strategy';
