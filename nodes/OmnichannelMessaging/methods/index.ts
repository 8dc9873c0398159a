// n8n looks a method up by its kind and name (methods.listSearch.searchChannels), so each file's
// exports are exactly its methods.
export * as listSearch from './listSearch';
export * as resourceMapping from './resourceMapping';
