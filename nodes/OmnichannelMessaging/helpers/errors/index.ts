// Every error the node raises is built here: its facts, what stops an item or the run (the input,
// Send Once, the run's end) and what the service or the network answered. The transport
// (transport/secrets.ts) scrubs the credential's secrets from whatever they say before any of it is used.
export * from './facts';
export * from './run';
export * from './service';
