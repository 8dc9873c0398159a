/**
 * The phone table is generated (npm run phones:generate): it must be exactly what the script
 * writes from the pinned libphonenumber-js. A Node whose CLDR differs from the one that named the
 * countries compares everything but the names, which it takes from the committed table.
 */
import { readFileSync } from 'node:fs';

import { countryOf } from '../../../../nodes/OmnichannelMessaging/helpers/phone/phone';
import {
	COUNTRY_NAMES_CLDR,
	PHONE_TABLE_SOURCE,
} from '../../../../nodes/OmnichannelMessaging/helpers/phone/phoneTable.generated';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require('../../../../scripts/phones-generate.js') as {
	buildPhoneTable: (options?: { names?: (country: string) => string; cldr?: string }) => string;
	OUTPUT: string;
	libraryVersion: () => string;
};

interface PackageJson {
	devDependencies: Record<string, string>;
}

describe('the generated phone table', () => {
	test('is what npm run phones:generate writes from the pinned libphonenumber-js', () => {
		const sameCldr = process.versions.cldr === COUNTRY_NAMES_CLDR;
		const expected = generator.buildPhoneTable(
			sameCldr
				? {}
				: { names: (country) => countryOf(country)?.name ?? '', cldr: COUNTRY_NAMES_CLDR },
		);
		const committed = readFileSync(generator.OUTPUT, 'utf8');
		if (committed !== expected) {
			throw new Error(
				'nodes/OmnichannelMessaging/helpers/phone/phoneTable.generated.ts is stale: run npm run ' +
					'phones:generate and commit it',
			);
		}
	});

	test('names the library version it was built from, which is the pinned one', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const packageJson = require('../../../../package.json') as PackageJson;
		const pinned = packageJson.devDependencies['libphonenumber-js'];
		expect(PHONE_TABLE_SOURCE).toBe(`libphonenumber-js ${generator.libraryVersion()}`);
		expect(pinned).toBe(generator.libraryVersion());
	});
});
