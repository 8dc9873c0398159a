import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { invalidInputError } from '../../helpers/errors';
import type { OperationContext } from '../../helpers/operationContext';
import { allCountries, countryOf } from '../../helpers/phone/phonePlans';
import type { Country } from '../../helpers/phone/phonePlans';

const FIELD = 'Default Country';

/** The Default Country option; the choice is stored as the ISO code (`DE`). */
export function defaultCountryField(): INodeProperties {
	const countries = allCountries()
		.map(({ code, name, callingCode }) => ({ name: `${name} (+${callingCode})`, value: code }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return {
		displayName: FIELD,
		name: 'defaultCountry',
		type: 'options',
		default: '',
		options: [{ name: 'None: International Format Only', value: '' }, ...countries],
		description:
			'The country a number without + or 00 is dialled in: "0151 2345 6789" with Germany becomes ' +
			"+4915123456789, by libphonenumber's rules for that country. A number that cannot be one " +
			'of its numbers stops the item. Numbers with + or 00 are sent as they are.',
		hint: 'An expression may give a two-letter country code per item, for example {{ $json.country }} holding DE',
	};
}

export type CountryChoice = { perItem: false; code?: string } | { perItem: true };

/** Once per execution: an expression is read per item, a fixed choice never again. */
export function defaultCountryChoice(node: INode): CountryChoice {
	const saved = (node.parameters.options as IDataObject | undefined)?.defaultCountry;
	if (typeof saved === 'string' && saved.startsWith('=')) return { perItem: true };
	return {
		perItem: false,
		code: saved === undefined || saved === null || saved === '' ? undefined : String(saved),
	};
}

/** When set, the rendered message names the number sent. */
export function countryIsSet(choice: CountryChoice): boolean {
	return choice.perItem || choice.code !== undefined;
}

/** The item's country; without one, a number needs + or 00, as without the option. */
export function countryForItem(
	context: OperationContext,
	itemIndex: number,
	choice: CountryChoice,
): Country | undefined {
	const value = choice.perItem ? context.get('options.defaultCountry', itemIndex, '') : choice.code;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	const country = typeof value === 'string' ? countryOf(value.trim()) : undefined;
	if (country) return country;
	throw invalidInputError(
		context.node,
		itemIndex,
		FIELD,
		`${JSON.stringify(value)} is not a country code: give the two-letter ISO 3166 code, for ` +
			`example DE for Germany or US for the United States`,
	);
}
