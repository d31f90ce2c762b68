export { createSessionStore, type SessionStore } from './store';
export { sessionMiddleware, sessionKeys, SESSION_MAX_AGE_MS } from './middleware';
export { createSessionsService, type SessionsService } from './service';
export { sessionsRouter } from './routes';
