// Every error the node raises is built here; the transport (transport/secrets.ts) scrubs the
// credential's secrets from whatever the service or network says before any of it is used.
export * from './editor';
export * from './facts';
export * from './items';
export * from './service';
export * from './summary';
