/*
 * Italian, addressing the customer as tu, as messaging apps do.
 */
export default {
	title: 'La tua risposta',
	freeTextLabel: 'La tua risposta',
	approve: '✓ Approva',
	decline: '✗ Rifiuta',
	respond: 'Rispondi',
	submit: 'Invia',
	send: 'Invia',
	choose: 'Scegli…',
	recordedTitle: 'Risposta registrata',
	recordedChoice: 'La tua risposta: {label}',
	recordedForm: 'Abbiamo registrato la tua risposta:',
	closePage: 'Ora puoi chiudere questa pagina.',
	refusedTitle: 'Nessuna risposta registrata',
	linkInvalid:
		'Questo link non è valido: potrebbe essere stato modificato o essere incompleto. Aprilo di ' +
		'nuovo dal messaggio che hai ricevuto.',
	linkExpired: 'Questo link è scaduto: le risposte non vengono più registrate.',
	linkUnusable: 'Al momento non è possibile rispondere a questa domanda.',
	cannotAnswer: 'Non è possibile rispondere a questa domanda.',
	notAButton: 'Nessuna risposta registrata: tocca uno dei pulsanti qui sotto.',
	notFromForm: 'Nessuna risposta registrata: rispondi tramite il modulo in questa pagina.',
	fixMarked:
		'Nessuna risposta registrata: correggi ciò che è segnalato qui sotto, poi invia ' +
		'di nuovo il modulo.',
	cutShort:
		'Nessuna risposta registrata: il modulo è arrivato incompleto. Se un campo file resta vuoto ' +
		'o un file è troppo grande per questo server, il resto del modulo non può essere letto: ' +
		'scegli un file in ogni campo file, poi invia di nuovo il modulo.',
	fillIn: 'Compila questo campo.',
	enterOne: 'Inserisci un solo valore.',
	shorten: {
		one: 'Accorcia il testo a {count} carattere al massimo.',
		many: 'Accorcia il testo a {count} caratteri al massimo.',
		other: 'Accorcia il testo a {count} caratteri al massimo.',
	},
	enterNumber: 'Inserisci un numero.',
	enterEmail: 'Inserisci un indirizzo email, ad es. nome@esempio.it.',
	enterDate: 'Inserisci una data nel formato AAAA-MM-GG.',
	chooseOffered: 'Scegli tra le opzioni proposte.',
	chooseOnce: 'Scegli ogni opzione una sola volta.',
	chooseOption: 'Scegli un’opzione.',
	chooseOne: 'Scegli una sola opzione.',
	chooseExactly: {
		one: 'Scegli esattamente un’opzione.',
		many: 'Scegli esattamente {count} opzioni.',
		other: 'Scegli esattamente {count} opzioni.',
	},
	chooseAtLeast: {
		one: 'Scegli almeno un’opzione.',
		many: 'Scegli almeno {count} opzioni.',
		other: 'Scegli almeno {count} opzioni.',
	},
	chooseAtMost: {
		one: 'Scegli al massimo un’opzione.',
		many: 'Scegli al massimo {count} opzioni.',
		other: 'Scegli al massimo {count} opzioni.',
	},
	chooseBetween: {
		one: 'Scegli da {min} a {count} opzione.',
		many: 'Scegli da {min} a {count} opzioni.',
		other: 'Scegli da {min} a {count} opzioni.',
	},
	chooseFile: 'Scegli un file.',
	chooseOneFile: 'Scegli un solo file.',
	chooseUpToFiles: {
		one: 'Scegli al massimo {count} file.',
		many: 'Scegli fino a {count} file.',
		other: 'Scegli fino a {count} file.',
	},
	fileTypes: 'Scegli un file in uno di questi formati: {types}.',
	fileTooLarge: 'Ogni file può pesare fino a {size}.',
	hintSize: 'Fino a {size} per file.',
	hintCount: {
		one: 'Massimo {count} file.',
		many: 'Fino a {count} file.',
		other: 'Fino a {count} file.',
	},
	hintTypes: 'Formati accettati: {types}.',
	hintAgain:
		'Scegli di nuovo il file: quando la pagina viene ricaricata, i file non vengono conservati.',
};
