import type { ResourceMapperValue } from 'n8n-workflow';

export declare function mapperValue(value: Record<string, string>): ResourceMapperValue;
