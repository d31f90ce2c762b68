// Provider fakes for tests and benchmarks: they speak the providers' HTTP APIs, so the real SDKs are pointed at them.
export * from './chaos';
export * from './fake-resend';
export * from './fake-twilio';
export * from './fake-stripe';
export * from './metrics-scrape';
export * from './fake-shopify-admin';
export * from './fake-woocommerce';
