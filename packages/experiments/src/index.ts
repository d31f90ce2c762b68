export * from './assignment';
export * from './intervals';
export * from './incremental';
export * from './winner';
