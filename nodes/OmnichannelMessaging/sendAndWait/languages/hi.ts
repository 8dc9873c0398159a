/*
 * Hindi, addressing the customer as आप, with the words customers use on their phones
 * (फ़ाइल, लिंक, पेज).
 */
export default {
	tag: 'hi',
	name: 'Hindi',
	linkCode: 11,
	texts: {
		title: 'आपका जवाब',
		freeTextLabel: 'आपका जवाब',
		approve: '✓ मंज़ूर करें',
		decline: '✗ अस्वीकार करें',
		respond: 'जवाब दें',
		submit: 'सबमिट करें',
		send: 'भेजें',
		choose: 'चुनें…',
		recordedTitle: 'जवाब दर्ज हो गया',
		recordedChoice: 'दर्ज किया गया: {label}',
		recordedForm: 'आपका जवाब दर्ज हो गया:',
		closePage: 'अब आप यह पेज बंद कर सकते हैं।',
		refusedTitle: 'कुछ भी दर्ज नहीं हुआ',
		linkInvalid:
			'यह लिंक मान्य नहीं है: हो सकता है इसे बदला गया हो या यह अधूरा हो। इसे आपको मिले ' +
			'मैसेज से फिर से खोलें।',
		linkExpired: 'इस लिंक की समय-सीमा खत्म हो गई है: इसके ज़रिए अब जवाब दर्ज नहीं होते।',
		linkUnusable: 'इस सवाल का जवाब अभी नहीं दिया जा सकता।',
		cannotAnswer: 'इस सवाल का जवाब नहीं दिया जा सकता।',
		notAButton: 'कुछ भी दर्ज नहीं हुआ: नीचे दिए गए बटनों में से किसी एक पर टैप करें।',
		notFromForm: 'कुछ भी दर्ज नहीं हुआ: इस पेज के फ़ॉर्म से जवाब दें।',
		fixMarked: 'कुछ भी दर्ज नहीं हुआ: नीचे चिह्नित चीज़ें ठीक करें, फिर फ़ॉर्म दोबारा भेजें।',
		cutShort:
			'कुछ भी दर्ज नहीं हुआ: फ़ॉर्म अधूरा पहुँचा। खाली छोड़ा गया फ़ाइल फ़ील्ड, या इस ' +
			'सर्वर के लिए बहुत बड़ी फ़ाइल, बाकी फ़ॉर्म को पढ़ने से रोक देती है: हर फ़ाइल ' +
			'फ़ील्ड में एक फ़ाइल चुनें, फिर दोबारा भेजें।',
		fillIn: 'यह फ़ील्ड भरें।',
		enterOne: 'सिर्फ़ एक मान दर्ज करें।',
		shorten: {
			one: 'इसे ज़्यादा से ज़्यादा {count} अक्षर तक छोटा करें।',
			other: 'इसे ज़्यादा से ज़्यादा {count} अक्षरों तक छोटा करें।',
		},
		enterNumber: 'कोई संख्या दर्ज करें।',
		enterEmail: 'ईमेल पता दर्ज करें, जैसे naam@udaharan.com।',
		enterDate: 'तारीख साल-महीना-दिन (YYYY-MM-DD) के रूप में दर्ज करें।',
		chooseOffered: 'दिए गए विकल्पों में से ही चुनें।',
		chooseOnce: 'हर विकल्प सिर्फ़ एक बार चुनें।',
		chooseOption: 'कोई विकल्प चुनें।',
		chooseOne: 'सिर्फ़ एक विकल्प चुनें।',
		chooseExactly: {
			one: 'ठीक {count} विकल्प चुनें।',
			other: 'ठीक {count} विकल्प चुनें।',
		},
		chooseAtLeast: {
			one: 'कम से कम {count} विकल्प चुनें।',
			other: 'कम से कम {count} विकल्प चुनें।',
		},
		chooseBetween: {
			one: '{min} से {count} विकल्प चुनें।',
			other: '{min} से {count} विकल्प चुनें।',
		},
		chooseFile: 'कोई फ़ाइल चुनें।',
		chooseOneFile: 'सिर्फ़ एक फ़ाइल चुनें।',
		chooseUpToFiles: {
			one: 'ज़्यादा से ज़्यादा {count} फ़ाइल चुनें।',
			other: 'ज़्यादा से ज़्यादा {count} फ़ाइलें चुनें।',
		},
		fileTypes: 'इनमें से किसी प्रकार की फ़ाइल चुनें: {types}।',
		fileTooLarge: 'हर फ़ाइल ज़्यादा से ज़्यादा {size} की हो सकती है।',
		hintSize: 'हर फ़ाइल {size} तक।',
		hintCount: {
			one: 'ज़्यादा से ज़्यादा {count} फ़ाइल।',
			other: 'ज़्यादा से ज़्यादा {count} फ़ाइलें।',
		},
		hintTypes: 'प्रकार: {types}।',
		hintAgain: 'फ़ाइल फिर से चुनें: दोबारा दिखाए गए पेज में फ़ाइलें नहीं रहतीं।',
	},
};
