type Show = { resource: string[]; operation: string[] };

/** The displayOptions of a field that belongs to one operation of one resource. */
export function showFor(resource: string, operation: string): { show: Show } {
	return { show: { resource: [resource], operation: [operation] } };
}
