export * from './assignment';
