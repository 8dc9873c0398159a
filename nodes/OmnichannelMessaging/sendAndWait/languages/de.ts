/*
 * German, addressing the customer as Sie. Also the page of de-AT, de-CH and the like.
 */
export default {
	title: 'Ihre Antwort',
	freeTextLabel: 'Ihre Antwort',
	approve: '✓ Zustimmen',
	decline: '✗ Ablehnen',
	respond: 'Antworten',
	submit: 'Absenden',
	send: 'Senden',
	choose: 'Bitte wählen…',
	recordedTitle: 'Antwort gespeichert',
	recordedChoice: 'Gespeichert: {label}',
	recordedForm: 'Ihre Antwort wurde gespeichert:',
	closePage: 'Sie können diese Seite jetzt schließen.',
	refusedTitle: 'Nichts gespeichert',
	linkInvalid:
		'Dieser Link ist ungültig: Er wurde möglicherweise verändert oder abgeschnitten. ' +
		'Öffnen Sie ihn erneut aus der Nachricht, die Sie erhalten haben.',
	linkExpired: 'Dieser Link ist abgelaufen: Antworten darüber werden nicht mehr gespeichert.',
	linkUnusable: 'Diese Frage kann im Moment nicht beantwortet werden.',
	cannotAnswer: 'Diese Frage kann nicht beantwortet werden.',
	notAButton: 'Nichts gespeichert: Tippen Sie auf eine der Schaltflächen unten.',
	notFromForm: 'Nichts gespeichert: Antworten Sie bitte mit dem Formular auf dieser Seite.',
	fixMarked:
		'Nichts gespeichert: Korrigieren Sie die markierten Angaben und senden Sie das ' +
		'Formular erneut.',
	cutShort:
		'Nichts gespeichert: Das Formular kam unvollständig an. Ein leeres Dateifeld oder ' +
		'eine für diesen Server zu große Datei verhindert, dass der Rest gelesen wird: ' +
		'Wählen Sie in jedem Dateifeld eine Datei aus und senden Sie erneut.',
	fillIn: 'Bitte füllen Sie dieses Feld aus.',
	enterOne: 'Geben Sie nur einen Wert ein.',
	shorten: {
		one: 'Kürzen Sie den Text auf höchstens {count} Zeichen.',
		other: 'Kürzen Sie den Text auf höchstens {count} Zeichen.',
	},
	enterNumber: 'Geben Sie eine Zahl ein.',
	enterEmail: 'Geben Sie eine E-Mail-Adresse ein, z. B. name@beispiel.de.',
	enterDate: 'Geben Sie ein Datum im Format JJJJ-MM-TT ein.',
	chooseOffered: 'Wählen Sie aus den angebotenen Optionen.',
	chooseOnce: 'Wählen Sie jede Option nur einmal.',
	chooseOption: 'Wählen Sie eine Option.',
	chooseOne: 'Wählen Sie nur eine Option.',
	chooseExactly: {
		one: 'Wählen Sie genau {count} Option.',
		other: 'Wählen Sie genau {count} Optionen.',
	},
	chooseAtLeast: {
		one: 'Wählen Sie mindestens {count} Option.',
		other: 'Wählen Sie mindestens {count} Optionen.',
	},
	chooseAtMost: {
		one: 'Wählen Sie höchstens eine Option aus.',
		other: 'Wählen Sie höchstens {count} Optionen aus.',
	},
	chooseBetween: {
		one: 'Wählen Sie {min} bis {count} Option.',
		other: 'Wählen Sie {min} bis {count} Optionen.',
	},
	chooseFile: 'Wählen Sie eine Datei aus.',
	chooseOneFile: 'Wählen Sie nur eine Datei aus.',
	chooseUpToFiles: {
		one: 'Wählen Sie höchstens {count} Datei aus.',
		other: 'Wählen Sie höchstens {count} Dateien aus.',
	},
	fileTypes: 'Wählen Sie eine Datei eines dieser Typen: {types}.',
	fileTooLarge: 'Jede Datei darf höchstens {size} groß sein.',
	hintSize: 'Bis zu {size} pro Datei.',
	hintCount: {
		one: 'Bis zu {count} Datei.',
		other: 'Bis zu {count} Dateien.',
	},
	hintTypes: 'Dateitypen: {types}.',
	hintAgain:
		'Wählen Sie die Datei erneut aus: Eine erneut angezeigte Seite behält keine ' + 'Dateien.',
};
