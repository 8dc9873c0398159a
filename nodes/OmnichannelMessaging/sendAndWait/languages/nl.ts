/*
 * Dutch, addressing the customer as je, as Dutch companies write to customers.
 */
export default {
	title: 'Je antwoord',
	freeTextLabel: 'Je antwoord',
	approve: '✓ Goedkeuren',
	decline: '✗ Afwijzen',
	respond: 'Reageren',
	submit: 'Versturen',
	send: 'Verzenden',
	choose: 'Kies…',
	recordedTitle: 'Antwoord opgeslagen',
	recordedChoice: 'Opgeslagen: {label}',
	recordedForm: 'Je antwoord is opgeslagen:',
	closePage: 'Je kunt deze pagina nu sluiten.',
	refusedTitle: 'Niets opgeslagen',
	linkInvalid:
		'Deze link is niet geldig: misschien is hij gewijzigd of afgekapt. Open hem ' +
		'opnieuw vanuit het bericht dat je hebt ontvangen.',
	linkExpired: 'Deze link is verlopen: antwoorden via deze link worden niet meer opgeslagen.',
	linkUnusable: 'Deze vraag kan op dit moment niet worden beantwoord.',
	cannotAnswer: 'Deze vraag kan niet worden beantwoord.',
	notAButton: 'Niets opgeslagen: tik op een van de knoppen hieronder.',
	notFromForm: 'Niets opgeslagen: gebruik het formulier op deze pagina om te antwoorden.',
	fixMarked:
		'Niets opgeslagen: verbeter wat hieronder is gemarkeerd en verstuur het formulier ' +
		'opnieuw.',
	cutShort:
		'Niets opgeslagen: het formulier kwam onvolledig aan. Als een bestandsveld leeg blijft of ' +
		'een bestand te groot is voor deze server, kan de rest van het formulier niet worden ' +
		'gelezen: kies in elk bestandsveld een bestand en verstuur het formulier opnieuw.',
	fillIn: 'Vul dit veld in.',
	enterOne: 'Vul één waarde in.',
	shorten: {
		one: 'Maak dit korter: maximaal {count} teken.',
		other: 'Maak dit korter: maximaal {count} tekens.',
	},
	enterNumber: 'Vul een getal in.',
	enterEmail: 'Vul een e-mailadres in, bijvoorbeeld naam@voorbeeld.nl.',
	enterDate: 'Vul een datum in volgens het formaat JJJJ-MM-DD.',
	chooseOffered: 'Kies uit de aangeboden opties.',
	chooseOnce: 'Kies elke optie maar één keer.',
	chooseOption: 'Kies een optie.',
	chooseOne: 'Kies maar één optie.',
	chooseExactly: {
		one: 'Kies precies één optie.',
		other: 'Kies precies {count} opties.',
	},
	chooseAtLeast: {
		one: 'Kies minstens één optie.',
		other: 'Kies minstens {count} opties.',
	},
	chooseAtMost: {
		one: 'Kies maximaal één optie.',
		other: 'Kies maximaal {count} opties.',
	},
	chooseBetween: {
		one: 'Kies {min} tot en met {count} optie.',
		other: 'Kies {min} tot en met {count} opties.',
	},
	chooseFile: 'Kies een bestand.',
	chooseOneFile: 'Kies maar één bestand.',
	chooseUpToFiles: {
		one: 'Kies maximaal {count} bestand.',
		other: 'Kies maximaal {count} bestanden.',
	},
	fileTypes: 'Kies een bestand in een van deze formaten: {types}.',
	fileTooLarge: 'Elk bestand mag maximaal {size} zijn.',
	hintSize: 'Maximaal {size} per bestand.',
	hintCount: {
		one: 'Maximaal {count} bestand.',
		other: 'Maximaal {count} bestanden.',
	},
	hintTypes: 'Bestandstypen: {types}.',
	hintAgain:
		'Kies het bestand nog een keer: bij het opnieuw tonen van de pagina gaat je bestandskeuze ' +
		'verloren.',
};
