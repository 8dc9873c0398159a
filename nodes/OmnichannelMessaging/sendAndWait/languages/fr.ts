/*
 * French, addressing the customer as vous; a no-break space before a colon, as French sets it.
 */
export default {
	title: 'Votre réponse',
	freeTextLabel: 'Votre réponse',
	approve: '✓ Accepter',
	decline: '✗ Refuser',
	respond: 'Répondre',
	submit: 'Valider',
	send: 'Envoyer',
	choose: 'Choisir…',
	recordedTitle: 'Réponse enregistrée',
	recordedChoice: 'Votre réponse\u00a0: {label}',
	recordedForm: 'Votre réponse a été enregistrée\u00a0:',
	closePage: 'Vous pouvez fermer cette page.',
	refusedTitle: 'Rien n’a été enregistré',
	linkInvalid:
		'Ce lien n’est pas valide\u00a0: il a peut-être été modifié ou tronqué. Ouvrez-le à ' +
		'nouveau depuis le message que vous avez reçu.',
	linkExpired: 'Ce lien a expiré\u00a0: les réponses ne sont plus enregistrées.',
	linkUnusable: 'Il n’est pas possible de répondre à cette question pour le moment.',
	cannotAnswer: 'Il n’est pas possible de répondre à cette question.',
	notAButton: 'Rien n’a été enregistré\u00a0: appuyez sur l’un des boutons ci-dessous.',
	notFromForm: 'Rien n’a été enregistré\u00a0: répondez à l’aide du formulaire de cette page.',
	fixMarked:
		'Rien n’a été enregistré\u00a0: corrigez ce qui est signalé ci-dessous, puis renvoyez ' +
		'le formulaire.',
	cutShort:
		'Rien n’a été enregistré\u00a0: le formulaire est arrivé incomplet. Si un champ de fichier ' +
		'reste vide ou si un fichier est trop volumineux pour ce serveur, la suite du formulaire ne ' +
		'peut pas être lue\u00a0: choisissez un fichier dans chaque champ de fichier, puis renvoyez ' +
		'le formulaire.',
	fillIn: 'Remplissez ce champ.',
	enterOne: 'Saisissez une seule valeur.',
	shorten: {
		one: 'Raccourcissez ce texte à {count} caractère maximum.',
		many: 'Raccourcissez ce texte à {count} caractères maximum.',
		other: 'Raccourcissez ce texte à {count} caractères maximum.',
	},
	enterNumber: 'Saisissez un nombre.',
	enterEmail: 'Saisissez une adresse e-mail, par exemple nom@exemple.fr.',
	enterDate: 'Saisissez une date au format AAAA-MM-JJ.',
	chooseOffered: 'Choisissez parmi les options proposées.',
	chooseOnce: 'Choisissez chaque option une seule fois.',
	chooseOption: 'Choisissez une option.',
	chooseOne: 'Choisissez une seule option.',
	chooseExactly: {
		one: 'Choisissez exactement une option.',
		many: 'Choisissez exactement {count} options.',
		other: 'Choisissez exactement {count} options.',
	},
	chooseAtLeast: {
		one: 'Choisissez au moins une option.',
		many: 'Choisissez au moins {count} options.',
		other: 'Choisissez au moins {count} options.',
	},
	chooseAtMost: {
		one: 'Choisissez une option au maximum.',
		many: 'Choisissez {count} options au maximum.',
		other: 'Choisissez {count} options au maximum.',
	},
	chooseBetween: {
		one: 'Choisissez entre {min} et {count} option.',
		many: 'Choisissez entre {min} et {count} options.',
		other: 'Choisissez entre {min} et {count} options.',
	},
	chooseFile: 'Choisissez un fichier.',
	chooseOneFile: 'Choisissez un seul fichier.',
	chooseUpToFiles: {
		one: 'Choisissez {count} fichier au maximum.',
		many: 'Choisissez jusqu’à {count} fichiers.',
		other: 'Choisissez jusqu’à {count} fichiers.',
	},
	fileTypes: 'Choisissez un fichier dans l’un de ces formats\u00a0: {types}.',
	fileTooLarge: 'Chaque fichier ne doit pas dépasser {size}.',
	hintSize: 'Jusqu’à {size} par fichier.',
	hintCount: {
		one: 'Jusqu’à {count} fichier.',
		many: 'Jusqu’à {count} fichiers.',
		other: 'Jusqu’à {count} fichiers.',
	},
	hintTypes: 'Formats acceptés\u00a0: {types}.',
	hintAgain:
		'Choisissez à nouveau le fichier\u00a0: les fichiers ne sont pas conservés quand la page est ' +
		'réaffichée.',
};
