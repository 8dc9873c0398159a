import type { ResourceMapperValue } from 'n8n-workflow';

export declare function mapperValue(
	value: Record<string, string>,
	options?: { labels?: Record<string, string>; convertFieldsToString?: boolean },
): ResourceMapperValue;
