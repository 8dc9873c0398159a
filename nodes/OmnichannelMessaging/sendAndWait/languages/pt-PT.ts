/*
 * Portuguese as written in Portugal, addressing the customer in the third person.
 */
export default {
	title: 'A sua resposta',
	freeTextLabel: 'A sua resposta',
	approve: '✓ Aprovar',
	decline: '✗ Recusar',
	respond: 'Responder',
	submit: 'Enviar',
	send: 'Enviar',
	choose: 'Escolha…',
	recordedTitle: 'Resposta registada',
	recordedChoice: 'Registámos a sua resposta: {label}',
	recordedForm: 'Registámos a sua resposta:',
	closePage: 'Já pode fechar esta página.',
	refusedTitle: 'Nada foi registado',
	linkInvalid:
		'Esta ligação não é válida: pode ter sido alterada ou estar incompleta. Abra-a novamente a ' +
		'partir da mensagem que recebeu.',
	linkExpired: 'Esta ligação expirou: as respostas já não são registadas.',
	linkUnusable: 'De momento, não é possível responder a esta pergunta.',
	cannotAnswer: 'Não é possível responder a esta pergunta.',
	notAButton: 'Nada foi registado: toque num dos botões abaixo.',
	notFromForm: 'Nada foi registado: responda através do formulário desta página.',
	fixMarked:
		'Nada foi registado: corrija o que está assinalado abaixo e volte a enviar o ' + 'formulário.',
	cutShort:
		'Nada foi registado: o formulário chegou incompleto. Se um campo de ficheiro ficar vazio ou ' +
		'um ficheiro for demasiado grande para este servidor, o resto do formulário não pode ser ' +
		'lido: escolha um ficheiro em cada campo de ficheiro e volte a enviar.',
	fillIn: 'Preencha este campo.',
	enterOne: 'Indique um único valor.',
	shorten: {
		one: 'Reduza o texto para, no máximo, {count} caráter.',
		many: 'Reduza o texto para, no máximo, {count} carateres.',
		other: 'Reduza o texto para, no máximo, {count} carateres.',
	},
	enterNumber: 'Indique um número.',
	enterEmail: 'Indique um endereço de email, por exemplo nome@exemplo.pt.',
	enterDate: 'Indique uma data no formato AAAA-MM-DD.',
	chooseOffered: 'Escolha entre as opções apresentadas.',
	chooseOnce: 'Escolha cada opção apenas uma vez.',
	chooseOption: 'Escolha uma opção.',
	chooseOne: 'Escolha apenas uma opção.',
	chooseExactly: {
		one: 'Escolha exatamente uma opção.',
		many: 'Escolha exatamente {count} opções.',
		other: 'Escolha exatamente {count} opções.',
	},
	chooseAtLeast: {
		one: 'Escolha pelo menos uma opção.',
		many: 'Escolha pelo menos {count} opções.',
		other: 'Escolha pelo menos {count} opções.',
	},
	chooseAtMost: {
		one: 'Escolha no máximo uma opção.',
		many: 'Escolha no máximo {count} opções.',
		other: 'Escolha no máximo {count} opções.',
	},
	chooseBetween: {
		one: 'Escolha entre {min} e {count} opção.',
		many: 'Escolha entre {min} e {count} opções.',
		other: 'Escolha entre {min} e {count} opções.',
	},
	chooseFile: 'Escolha um ficheiro.',
	chooseOneFile: 'Escolha apenas um ficheiro.',
	chooseUpToFiles: {
		one: 'Escolha no máximo {count} ficheiro.',
		many: 'Escolha até {count} ficheiros.',
		other: 'Escolha até {count} ficheiros.',
	},
	fileTypes: 'Escolha um ficheiro num destes formatos: {types}.',
	fileTooLarge: 'Cada ficheiro pode ter até {size}.',
	hintSize: 'Até {size} por ficheiro.',
	hintCount: {
		one: 'Até {count} ficheiro.',
		many: 'Até {count} ficheiros.',
		other: 'Até {count} ficheiros.',
	},
	hintTypes: 'Formatos aceites: {types}.',
	hintAgain:
		'Volte a escolher o ficheiro: os ficheiros não são guardados quando a página é recarregada.',
};
