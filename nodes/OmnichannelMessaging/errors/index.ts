// Every error the node raises is built here; secrets.ts scrubs the credential's secrets from
// whatever the service or network says before any of it is used.
export * from './credentialTest';
export * from './editor';
export * from './facts';
export * from './items';
export * from './redirect';
export * from './secrets';
export * from './service';
export * from './summary';
