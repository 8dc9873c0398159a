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
	linkExpired: 'Deze link is verlopen: antwoorden worden niet meer opgeslagen.',
	linkUnusable: 'Deze vraag kan op dit moment niet worden beantwoord.',
	cannotAnswer: 'Deze vraag kan niet worden beantwoord.',
	notAButton: 'Niets opgeslagen: tik op een van de knoppen hieronder.',
	notFromForm: 'Niets opgeslagen: antwoord met het formulier op deze pagina.',
	fixMarked:
		'Niets opgeslagen: verbeter wat hieronder is gemarkeerd en verstuur het formulier ' +
		'opnieuw.',
	cutShort:
		'Niets opgeslagen: het formulier kwam onvolledig aan. Een leeg bestandsveld, of ' +
		'een bestand dat te groot is voor deze server, zorgt dat de rest niet wordt ' +
		'gelezen: kies in elk bestandsveld een bestand en verstuur opnieuw.',
	fillIn: 'Vul dit veld in.',
	enterOne: 'Vul één waarde in.',
	shorten: {
		one: 'Maak dit korter: maximaal {count} teken.',
		other: 'Maak dit korter: maximaal {count} tekens.',
	},
	enterNumber: 'Vul een getal in.',
	enterEmail: 'Vul een e-mailadres in, bijvoorbeeld naam@voorbeeld.nl.',
	enterDate: 'Vul een datum in als JJJJ-MM-DD.',
	chooseOffered: 'Kies uit de aangeboden opties.',
	chooseOnce: 'Kies elke optie maar één keer.',
	chooseOption: 'Kies een optie.',
	chooseOne: 'Kies maar één optie.',
	chooseExactly: {
		one: 'Kies precies {count} optie.',
		other: 'Kies precies {count} opties.',
	},
	chooseAtLeast: {
		one: 'Kies minstens {count} optie.',
		other: 'Kies minstens {count} opties.',
	},
	chooseAtMost: {
		one: 'Kies maximaal één optie.',
		other: 'Kies maximaal {count} opties.',
	},
	chooseBetween: {
		one: 'Kies {min} tot {count} optie.',
		other: 'Kies {min} tot {count} opties.',
	},
	chooseFile: 'Kies een bestand.',
	chooseOneFile: 'Kies maar één bestand.',
	chooseUpToFiles: {
		one: 'Kies maximaal {count} bestand.',
		other: 'Kies maximaal {count} bestanden.',
	},
	fileTypes: 'Kies een bestand van een van deze typen: {types}.',
	fileTooLarge: 'Elk bestand mag maximaal {size} zijn.',
	hintSize: 'Maximaal {size} per bestand.',
	hintCount: {
		one: 'Maximaal {count} bestand.',
		other: 'Maximaal {count} bestanden.',
	},
	hintTypes: 'Bestandstypen: {types}.',
	hintAgain: 'Kies het bestand opnieuw: een opnieuw getoonde pagina bewaart geen bestanden.',
};
