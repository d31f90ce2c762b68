export * from './model';
export * from './links';
export * from './setting';
export * from './routes';
export * from './privacy';
