/*
 * Spanish, for Spain and Latin America alike, addressing the customer as tú.
 */
export default {
	title: 'Tu respuesta',
	freeTextLabel: 'Tu respuesta',
	approve: '✓ Aprobar',
	decline: '✗ Rechazar',
	respond: 'Responder',
	submit: 'Enviar',
	send: 'Enviar',
	choose: 'Elige…',
	recordedTitle: 'Respuesta registrada',
	recordedChoice: 'Registramos tu respuesta: {label}',
	recordedForm: 'Registramos tu respuesta:',
	closePage: 'Ya puedes cerrar esta página.',
	refusedTitle: 'No se registró nada',
	linkInvalid:
		'Este enlace no es válido: puede que se haya modificado o esté incompleto. Ábrelo ' +
		'de nuevo desde el mensaje que recibiste.',
	linkExpired: 'Este enlace expiró y ya no acepta respuestas.',
	linkUnusable: 'En este momento no se puede responder a esta pregunta.',
	cannotAnswer: 'No se puede responder a esta pregunta.',
	notAButton: 'No se registró nada: toca uno de los botones de abajo.',
	notFromForm: 'No se registró nada: responde con el formulario de esta página.',
	fixMarked:
		'No se registró nada: corrige lo que está marcado abajo y vuelve a enviar el ' + 'formulario.',
	cutShort:
		'No se registró nada: el formulario llegó incompleto. Si un campo de archivo queda vacío o ' +
		'un archivo es demasiado grande para este servidor, no se puede leer el resto: elige un ' +
		'archivo en cada campo de archivo y vuelve a enviar el formulario.',
	fillIn: 'Completa este campo.',
	enterOne: 'Escribe un solo valor.',
	shorten: {
		one: 'Acórtalo a {count} carácter como máximo.',
		many: 'Acórtalo a {count} caracteres como máximo.',
		other: 'Acórtalo a {count} caracteres como máximo.',
	},
	enterNumber: 'Escribe un número.',
	enterEmail: 'Escribe una dirección de correo electrónico, p. ej., nombre@ejemplo.com.',
	enterDate: 'Escribe una fecha con el formato AAAA-MM-DD.',
	chooseOffered: 'Elige entre las opciones disponibles.',
	chooseOnce: 'Elige cada opción una sola vez.',
	chooseOption: 'Elige una opción.',
	chooseOne: 'Elige solo una opción.',
	chooseExactly: {
		one: 'Elige exactamente una opción.',
		many: 'Elige exactamente {count} opciones.',
		other: 'Elige exactamente {count} opciones.',
	},
	chooseAtLeast: {
		one: 'Elige al menos una opción.',
		many: 'Elige al menos {count} opciones.',
		other: 'Elige al menos {count} opciones.',
	},
	chooseAtMost: {
		one: 'Elige una opción como máximo.',
		many: 'Elige {count} opciones como máximo.',
		other: 'Elige {count} opciones como máximo.',
	},
	chooseBetween: {
		one: 'Elige entre {min} y {count} opción.',
		many: 'Elige entre {min} y {count} opciones.',
		other: 'Elige entre {min} y {count} opciones.',
	},
	chooseFile: 'Elige un archivo.',
	chooseOneFile: 'Elige solo un archivo.',
	chooseUpToFiles: {
		one: 'Elige {count} archivo como máximo.',
		many: 'Elige hasta {count} archivos.',
		other: 'Elige hasta {count} archivos.',
	},
	fileTypes: 'Elige un archivo en uno de estos formatos: {types}.',
	fileTooLarge: 'Cada archivo puede ocupar hasta {size}.',
	hintSize: 'Hasta {size} por archivo.',
	hintCount: {
		one: 'Hasta {count} archivo.',
		many: 'Hasta {count} archivos.',
		other: 'Hasta {count} archivos.',
	},
	hintTypes: 'Formatos admitidos: {types}.',
	hintAgain:
		'Vuelve a elegir el archivo: al mostrar la página de nuevo no se conservan los ' + 'archivos.',
};
