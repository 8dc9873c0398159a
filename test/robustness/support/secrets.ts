/**
 * Finds a secret anywhere in a value: enumerable or not (an error's stack, message, cause, and
 * the cause's request config and headers), in Maps, Sets and Buffers, through cycles.
 * Returns the paths where it was found.
 */
export function findSecret(value: unknown, secret: string, limit = 5): string[] {
	const found: string[] = [];
	const seen = new WeakSet<object>();
	const visit = (current: unknown, path: string, depth: number): void => {
		if (found.length >= limit || depth > 60) return;
		if (typeof current === 'string') {
			if (current.includes(secret)) found.push(path);
			return;
		}
		if (current === null || (typeof current !== 'object' && typeof current !== 'function')) return;
		const object = current as object;
		if (seen.has(object)) return;
		seen.add(object);
		if (Buffer.isBuffer(object)) {
			if (object.includes(secret)) found.push(path);
			return;
		}
		if (ArrayBuffer.isView(object)) return;
		if (object instanceof Map) {
			for (const [key, entry] of object) {
				visit(key, `${path}<key>`, depth + 1);
				visit(entry, `${path}.get(${String(key)})`, depth + 1);
			}
		}
		if (object instanceof Set)
			for (const entry of object) visit(entry, `${path}<entry>`, depth + 1);
		for (const key of Reflect.ownKeys(object)) {
			let child: unknown;
			try {
				child = (object as Record<string | symbol, unknown>)[key];
			} catch {
				continue;
			}
			visit(
				child,
				typeof key === 'symbol' ? `${path}[${String(key)}]` : `${path}.${key}`,
				depth + 1,
			);
		}
	};
	visit(value, '$', 0);
	return found;
}
