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
	refusedTitle: 'Antwort nicht gespeichert',
	linkInvalid:
		'Dieser Link ist ungültig: Er wurde möglicherweise verändert oder abgeschnitten. Öffnen Sie ' +
		'ihn erneut über die Nachricht, die Sie erhalten haben.',
	linkExpired:
		'Dieser Link ist abgelaufen: Antworten über diesen Link werden nicht mehr gespeichert.',
	linkUnusable: 'Diese Frage kann im Moment nicht beantwortet werden.',
	cannotAnswer: 'Diese Frage kann nicht beantwortet werden.',
	notAButton: 'Antwort nicht gespeichert: Tippen Sie unten auf eine der Schaltflächen.',
	notFromForm: 'Antwort nicht gespeichert: Bitte antworten Sie über das Formular auf dieser Seite.',
	fixMarked:
		'Antwort nicht gespeichert: Korrigieren Sie die markierten Angaben und senden Sie das ' +
		'Formular erneut ab.',
	cutShort:
		'Antwort nicht gespeichert: Das Formular kam unvollständig an. Wenn ein Dateifeld leer ' +
		'bleibt oder eine Datei für diesen Server zu groß ist, kann der Rest des Formulars nicht ' +
		'gelesen werden: Wählen Sie in jedem Dateifeld eine Datei aus und senden Sie das Formular ' +
		'erneut ab.',
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
	chooseOnce: 'Wählen Sie jede Option nur einmal aus.',
	chooseOption: 'Wählen Sie eine Option aus.',
	chooseOne: 'Wählen Sie nur eine Option aus.',
	chooseExactly: {
		one: 'Wählen Sie genau eine Option aus.',
		other: 'Wählen Sie genau {count} Optionen aus.',
	},
	chooseAtLeast: {
		one: 'Wählen Sie mindestens eine Option aus.',
		other: 'Wählen Sie mindestens {count} Optionen aus.',
	},
	chooseAtMost: {
		one: 'Wählen Sie höchstens eine Option aus.',
		other: 'Wählen Sie höchstens {count} Optionen aus.',
	},
	chooseBetween: {
		one: 'Wählen Sie {min} bis {count} Option aus.',
		other: 'Wählen Sie {min} bis {count} Optionen aus.',
	},
	chooseFile: 'Wählen Sie eine Datei aus.',
	chooseOneFile: 'Wählen Sie nur eine Datei aus.',
	chooseUpToFiles: {
		one: 'Wählen Sie höchstens {count} Datei aus.',
		other: 'Wählen Sie höchstens {count} Dateien aus.',
	},
	fileTypes: 'Wählen Sie eine Datei in einem dieser Formate aus: {types}.',
	fileTooLarge: 'Jede Datei darf höchstens {size} groß sein.',
	hintSize: 'Bis zu {size} pro Datei.',
	hintCount: {
		one: 'Bis zu {count} Datei.',
		other: 'Bis zu {count} Dateien.',
	},
	hintTypes: 'Dateitypen: {types}.',
	hintAgain:
		'Wählen Sie die Datei erneut aus: Beim erneuten Anzeigen der Seite geht die Dateiauswahl ' +
		'verloren.',
};
