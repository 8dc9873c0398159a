// Every error the node raises is built here, one file per thing that failed; the transport
// (transport/secrets.ts) scrubs the credential's secrets from whatever the service or network says
// before any of it is used.
export * from './facts';
export * from './input';
export * from './service';
export * from './network';
export * from './sendOnce';
export * from './sendAndWait';
export * from './summary';
