// Every error the node raises is built here; the transport (transport/secrets.ts) scrubs the
// credential's secrets from whatever the service or network says before any of it is used.
export * from './editor';
export * from './facts';
export * from './service';
export * from './network';
export * from './summary';
// One file per thing that failed.
export * from './cancellation';
export * from './channelList';
export * from './credential';
export * from './input';
export * from './rateLimit';
export * from './send';
export * from './sendOnce';
export * from './sendAndWait';
