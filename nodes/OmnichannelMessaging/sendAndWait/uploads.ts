import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { accepted, refused } from '../helpers/checked';
import type { Checked } from '../helpers/checked';
import { MAX_FILE_BYTES, MAX_FILE_MB, MAX_FILES, binaryName } from './formFields';
import type { FormField } from './formFields';

/*
 * A form's files: as n8n's multipart parser hands them over, checked against their field, and
 * kept as binary properties of the item the execution resumes with.
 */

/** A file as n8n's multipart parser hands it over. */
export interface UploadedFile {
	filepath: string;
	originalFilename?: string | null;
	newFilename?: string;
	mimetype?: string | null;
	size: number;
}

/** A file to keep as a binary property of the output item. */
export interface Upload {
	property: string;
	file: UploadedFile;
}

/** Files as uploaded; n8n 1.x hands an empty file input over as a file without a name. */
export const filesOf = (value: unknown): UploadedFile[] =>
	(Array.isArray(value) ? value : value ? [value] : []).filter(
		(file: UploadedFile) =>
			typeof file?.filepath === 'string' && !(file.size === 0 && !file.originalFilename),
	);

function isAccepted(field: FormField, file: UploadedFile): boolean {
	if (field.accept.length === 0) return true;
	const name = (file.originalFilename ?? '').toLowerCase();
	const type = (file.mimetype ?? '').toLowerCase();
	return field.accept.some((entry) =>
		entry.startsWith('.')
			? name.endsWith(entry)
			: entry.endsWith('/*')
				? type.startsWith(entry.slice(0, -1))
				: type === entry,
	);
}

/** A file field's files: their metadata (one, several or none), or what to fix. */
export function readFiles(field: FormField, files: UploadedFile[]): Checked<unknown> {
	if (files.length === 0) return field.required ? refused('Choose a file.') : accepted(null);
	if (files.length > 1 && !field.multiple) return refused('Choose one file only.');
	if (files.length > MAX_FILES) return refused(`Choose up to ${MAX_FILES} files.`);
	if (files.some((file) => !isAccepted(field, file)))
		return refused(`Choose a file of these types: ${field.accept.join(', ')}.`);
	if (files.some((file) => file.size > MAX_FILE_BYTES))
		return refused(`Each file can be up to ${MAX_FILE_MB} MB.`);
	const meta = files.map((file) => ({
		filename: file.originalFilename ?? file.newFilename ?? '',
		mimetype: file.mimetype ?? '',
		size: file.size,
	}));
	return accepted(field.multiple ? meta : meta[0]);
}

/** n8n's binary property names: the key with non-word characters as `_`, `_0`, `_1`… for several. */
export function uploadsOf(key: string, files: UploadedFile[]): Upload[] {
	const base = binaryName(key);
	return files.map((file, index) => ({
		property: files.length > 1 ? `${base}_${index}` : base,
		file,
	}));
}

/**
 * The item to resume with: n8n's output, and a form's files as binary properties, copied from
 * n8n's temporary files (which n8n removes once the request ends) as n8n's Form node does.
 */
export async function resumeItem(
	functions: IWebhookFunctions,
	uploads: Upload[],
	data: IDataObject,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: { data } };
	if (uploads.length === 0) return item;
	const binary: IBinaryKeyData = {};
	for (const { property, file } of uploads) {
		const name = file.originalFilename ?? file.newFilename ?? property;
		binary[property] = await functions.nodeHelpers.copyBinaryFile(
			file.filepath,
			name,
			file.mimetype ?? undefined,
		);
	}
	return { ...item, binary };
}

/** What the page says under a file field: the size, how many, the types, and to choose again. */
export function fileHint(field: FormField, shownAgain: boolean): string {
	const types = field.accept.length > 0 ? ` Types: ${field.accept.join(', ')}.` : '';
	const again = shownAgain ? ' Choose the file again: a page shown again keeps no file.' : '';
	const count = field.multiple ? ` Up to ${MAX_FILES} files.` : '';
	return `Up to ${MAX_FILE_MB} MB per file.${count}${types}${again}`;
}
