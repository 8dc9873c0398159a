import type { IDataObject } from 'n8n-workflow';

/**
 * A WhatsApp template as the service returns it (test/fixtures/spec/service-api.md §2.2); unknown
 * fields pass through.
 */
export interface WhatsAppTemplate extends IDataObject {
	id: number;
	name: string;
	body?: string;
	header?: { type?: string; value?: string } | null;
	footer?: string | null;
	buttons?: Array<{ id?: number; type?: string; title?: string; value?: string }> | null;
	attributes?: Array<{ attribute?: string | number }> | null;
}

export const HEADER_MEDIA_TYPES = ['image', 'audio', 'video', 'document'] as const;
export type HeaderMediaType = (typeof HEADER_MEDIA_TYPES)[number];

export function isHeaderMediaType(value: unknown): value is HeaderMediaType {
	return typeof value === 'string' && (HEADER_MEDIA_TYPES as readonly string[]).includes(value);
}

/** The header's type in lower case ("IMAGE" and "image" both occur), or undefined without one. */
export function templateHeaderType(template: WhatsAppTemplate): string | undefined {
	return template.header &&
		typeof template.header === 'object' &&
		typeof template.header.type === 'string'
		? template.header.type.toLowerCase()
		: undefined;
}
