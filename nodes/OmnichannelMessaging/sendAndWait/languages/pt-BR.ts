/*
 * Portuguese as written in Brazil, addressing the customer as você.
 */
export default {
	title: 'Sua resposta',
	freeTextLabel: 'Sua resposta',
	approve: '✓ Aprovar',
	decline: '✗ Recusar',
	respond: 'Responder',
	submit: 'Enviar',
	send: 'Enviar',
	choose: 'Selecione…',
	recordedTitle: 'Resposta registrada',
	recordedChoice: 'Registramos sua resposta: {label}',
	recordedForm: 'Registramos sua resposta:',
	closePage: 'Você já pode fechar esta página.',
	refusedTitle: 'Nada foi registrado',
	linkInvalid:
		'Este link não é válido: ele pode ter sido alterado ou estar incompleto. Abra o link ' +
		'novamente pela mensagem que você recebeu.',
	linkExpired: 'Este link expirou e não aceita mais respostas.',
	linkUnusable: 'No momento, não é possível responder a esta pergunta.',
	cannotAnswer: 'Não é possível responder a esta pergunta.',
	notAButton: 'Nada foi registrado: toque em um dos botões abaixo.',
	notFromForm: 'Nada foi registrado: responda pelo formulário desta página.',
	fixMarked: 'Nada foi registrado: corrija o que está marcado abaixo e envie o formulário de novo.',
	cutShort:
		'Nada foi registrado: o formulário chegou incompleto. Se um campo de arquivo ficar vazio ou ' +
		'um arquivo for grande demais para este servidor, o restante do formulário não pode ser ' +
		'lido: escolha um arquivo em cada campo de arquivo e envie de novo.',
	fillIn: 'Preencha este campo.',
	enterOne: 'Informe um único valor.',
	shorten: {
		one: 'Reduza o texto para no máximo {count} caractere.',
		many: 'Reduza o texto para no máximo {count} caracteres.',
		other: 'Reduza o texto para no máximo {count} caracteres.',
	},
	enterNumber: 'Informe um número.',
	enterEmail: 'Informe um endereço de e-mail, por exemplo nome@exemplo.com.',
	enterDate: 'Informe a data no formato AAAA-MM-DD.',
	chooseOffered: 'Escolha entre as opções disponíveis.',
	chooseOnce: 'Escolha cada opção só uma vez.',
	chooseOption: 'Escolha uma opção.',
	chooseOne: 'Escolha só uma opção.',
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
		one: 'Escolha de {min} a {count} opção.',
		many: 'Escolha de {min} a {count} opções.',
		other: 'Escolha de {min} a {count} opções.',
	},
	chooseFile: 'Escolha um arquivo.',
	chooseOneFile: 'Escolha apenas um arquivo.',
	chooseUpToFiles: {
		one: 'Escolha no máximo {count} arquivo.',
		many: 'Escolha até {count} arquivos.',
		other: 'Escolha até {count} arquivos.',
	},
	fileTypes: 'Escolha um arquivo em um destes formatos: {types}.',
	fileTooLarge: 'Cada arquivo pode ter até {size}.',
	hintSize: 'Até {size} por arquivo.',
	hintCount: {
		one: 'Até {count} arquivo.',
		many: 'Até {count} arquivos.',
		other: 'Até {count} arquivos.',
	},
	hintTypes: 'Formatos aceitos: {types}.',
	hintAgain:
		'Escolha o arquivo novamente: os arquivos não são mantidos quando a página é recarregada.',
};
