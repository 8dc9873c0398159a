/*
 * Turkish, addressing the customer politely (siz).
 */
export default {
	title: 'Yanıtınız',
	freeTextLabel: 'Yanıtınız',
	approve: '✓ Onayla',
	decline: '✗ Reddet',
	respond: 'Yanıtla',
	submit: 'Gönder',
	send: 'Gönder',
	choose: 'Seçiniz…',
	recordedTitle: 'Yanıtınız kaydedildi',
	recordedChoice: 'Kaydedildi: {label}',
	recordedForm: 'Kaydedilen yanıtlarınız:',
	closePage: 'Bu sayfayı kapatabilirsiniz.',
	refusedTitle: 'Yanıtınız kaydedilmedi',
	linkInvalid:
		'Bu bağlantı geçerli değil: değiştirilmiş ya da eksik kopyalanmış olabilir. ' +
		'Bağlantıyı aldığınız mesajdan yeniden açın.',
	linkExpired: 'Bu bağlantının süresi doldu: bu bağlantıyla verilen yanıtlar artık kaydedilmiyor.',
	linkUnusable: 'Bu soru şu anda yanıtlanamıyor.',
	cannotAnswer: 'Bu soru yanıtlanamıyor.',
	notAButton: 'Yanıtınız kaydedilmedi: aşağıdaki düğmelerden birine dokunun.',
	notFromForm: 'Yanıtınız kaydedilmedi: bu sayfadaki formu kullanarak yanıtlayın.',
	fixMarked: 'Yanıtınız kaydedilmedi: aşağıda işaretlenen yerleri düzeltip formu yeniden gönderin.',
	cutShort:
		'Yanıtınız kaydedilmedi: form eksik ulaştı. Boş bırakılan bir dosya alanı ya da bu sunucu ' +
		'için çok büyük bir dosya, formun geri kalanının okunmasını engeller: her dosya alanında bir ' +
		'dosya seçip formu yeniden gönderin.',
	fillIn: 'Bu alanı doldurun.',
	enterOne: 'Tek bir değer girin.',
	shorten: {
		one: 'Metni en fazla {count} karaktere kısaltın.',
		other: 'Metni en fazla {count} karaktere kısaltın.',
	},
	enterNumber: 'Bir sayı girin.',
	enterEmail: 'Bir e-posta adresi girin, ör. ad@ornek.com.',
	enterDate: 'Tarihi YYYY-AA-GG biçiminde girin.',
	chooseOffered: 'Yalnızca sunulan seçeneklerden seçin.',
	chooseOnce: 'Her seçeneği yalnızca bir kez seçin.',
	chooseOption: 'Bir seçenek seçin.',
	chooseOne: 'Yalnızca bir seçenek seçin.',
	chooseExactly: {
		one: 'Tam olarak {count} seçenek seçin.',
		other: 'Tam olarak {count} seçenek seçin.',
	},
	chooseAtLeast: {
		one: 'En az {count} seçenek seçin.',
		other: 'En az {count} seçenek seçin.',
	},
	chooseAtMost: {
		one: 'En fazla {count} seçenek seçin.',
		other: 'En fazla {count} seçenek seçin.',
	},
	chooseBetween: {
		one: '{min} ile {count} arasında seçenek seçin.',
		other: '{min} ile {count} arasında seçenek seçin.',
	},
	chooseFile: 'Bir dosya seçin.',
	chooseOneFile: 'Yalnızca bir dosya seçin.',
	chooseUpToFiles: {
		one: 'En fazla {count} dosya seçin.',
		other: 'En fazla {count} dosya seçin.',
	},
	fileTypes: 'Şu türlerden bir dosya seçin: {types}.',
	fileTooLarge: 'Her dosyanın boyutu en fazla {size} olabilir.',
	hintSize: 'Dosya başına en fazla {size}.',
	hintCount: {
		one: 'En fazla {count} dosya.',
		other: 'En fazla {count} dosya.',
	},
	hintTypes: 'Dosya türleri: {types}.',
	hintAgain: 'Dosyayı yeniden seçin: sayfa yeniden gösterildiğinde seçtiğiniz dosyalar korunmaz.',
};
