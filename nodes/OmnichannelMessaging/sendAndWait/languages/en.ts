/*
 * English, the default: every key of every language is here (texts.ts takes its keys from this
 * file). A page of a workflow saved before Page Language existed reads these words exactly.
 * `{count}` and the other places are filled by texts.ts, numbers formatted for the language.
 */
export default {
	title: 'Your answer',
	freeTextLabel: 'Your answer',
	approve: '✓ Approve',
	decline: '✗ Decline',
	respond: 'Respond',
	submit: 'Submit',
	send: 'Send',
	choose: 'Choose…',
	recordedTitle: 'Answer recorded',
	recordedChoice: 'Recorded: {label}',
	recordedForm: 'Recorded your answer:',
	closePage: 'You can close this page.',
	refusedTitle: 'Nothing recorded',
	linkInvalid:
		'This link is not valid: it may have been changed or cut short. Open it again from the ' +
		'message you received.',
	linkExpired: 'This link has expired: answers to it are no longer recorded.',
	linkUnusable: 'This question cannot be answered at the moment.',
	cannotAnswer: 'This question cannot be answered.',
	notAButton: 'Nothing was recorded: tap one of the buttons below.',
	notFromForm: 'Nothing was recorded: answer with the form on this page.',
	fixMarked: 'Nothing was recorded: fix what is marked below, then send the form again.',
	cutShort:
		'Nothing was recorded: the form arrived incomplete. A file field left empty, or a file too ' +
		'large for this n8n, stops it reading the rest: choose a file in each file field, then send again.',
	fillIn: 'Fill in this field.',
	enterOne: 'Enter one value.',
	shorten: {
		one: 'Shorten this to {count} character or fewer.',
		other: 'Shorten this to {count} characters or fewer.',
	},
	enterNumber: 'Enter a number.',
	enterEmail: 'Enter an email address, e.g. name@example.com.',
	enterDate: 'Enter a date as YYYY-MM-DD.',
	chooseOffered: 'Choose from the options offered.',
	chooseOnce: 'Choose each option once.',
	chooseOption: 'Choose an option.',
	chooseOne: 'Choose one option.',
	chooseExactly: { one: 'Choose exactly {count}.', other: 'Choose exactly {count}.' },
	chooseAtLeast: { one: 'Choose at least {count}.', other: 'Choose at least {count}.' },
	chooseAtMost: { one: 'Choose at most {count}.', other: 'Choose at most {count}.' },
	chooseBetween: {
		one: 'Choose between {min} and {count}.',
		other: 'Choose between {min} and {count}.',
	},
	chooseFile: 'Choose a file.',
	chooseOneFile: 'Choose one file only.',
	chooseUpToFiles: { one: 'Choose up to {count} file.', other: 'Choose up to {count} files.' },
	fileTypes: 'Choose a file of these types: {types}.',
	fileTooLarge: 'Each file can be up to {size}.',
	hintSize: 'Up to {size} per file.',
	hintCount: { one: 'Up to {count} file.', other: 'Up to {count} files.' },
	hintTypes: 'Types: {types}.',
	hintAgain: 'Choose the file again: a page shown again keeps no file.',
};
