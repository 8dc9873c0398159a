'use strict';
/*
 * A custom form with every field type n8n's Form node has, as its form JSON: the
 * accessibility checks (scripts/a11y.js, the end-to-end suites) draw it and answer it.
 */

const options = (...names) => ({ values: names.map((option) => ({ option })) });

/**
 * The words of a form with every field type n8n's Form node has, in English and in Arabic (a
 * right-to-left page): the accessibility checks draw it in both.
 */
const EVERY_TYPE_WORDS = {
	en: {
		title: 'Return request',
		question: 'Please fill in the return form.',
		button: 'Send request',
		labels: ['Name', 'Comment', 'Access code', 'Quantity', 'E-mail', 'Delivery date'],
		placeholder: 'e.g. Anna',
		colour: ['Colour', 'Red', 'Green', 'Blue'],
		sizes: ['Sizes', 'Small', 'Medium', 'Large'],
		extras: ['Extras', 'Gift wrap', 'Card', 'Express'],
		delivery: ['Delivery', 'Standard', 'Next day'],
		files: ['Receipt', 'Photos'],
		html: '<h2>Before you send</h2><p>Pack the item <strong>unused</strong>.</p><ul><li>Keep the box</li></ul>',
	},
	ar: {
		title: 'طلب إرجاع',
		question: 'يرجى ملء نموذج الإرجاع.',
		button: 'إرسال الطلب',
		labels: ['الاسم', 'تعليق', 'رمز الدخول', 'الكمية', 'البريد الإلكتروني', 'تاريخ التسليم'],
		placeholder: 'مثلًا: سارة',
		colour: ['اللون', 'أحمر', 'أخضر', 'أزرق'],
		sizes: ['المقاسات', 'صغير', 'متوسط', 'كبير'],
		extras: ['إضافات', 'تغليف هدية', 'بطاقة', 'شحن سريع'],
		delivery: ['التوصيل', 'عادي', 'في اليوم التالي'],
		files: ['الإيصال', 'الصور'],
		html: '<h2>قبل الإرسال</h2><p>غلّف المنتج <strong>دون استعمال</strong>.</p><ul><li>احتفظ بالعلبة</li></ul>',
	},
};

/**
 * That form as n8n's form JSON: each type once, the dropdown and files twice (one and several).
 */
function everyTypeFields(words = EVERY_TYPE_WORDS.en) {
	const [name, comment, code, quantity, email, date] = words.labels;
	const choices = ([fieldLabel, ...names]) => ({ fieldLabel, fieldOptions: options(...names) });
	return [
		{ fieldLabel: name, fieldType: 'text', placeholder: words.placeholder, requiredField: true },
		{ fieldLabel: comment, fieldType: 'textarea' },
		{ fieldLabel: code, fieldType: 'password' },
		{ fieldLabel: quantity, fieldType: 'number' },
		{ fieldLabel: email, fieldType: 'email', requiredField: true },
		{ fieldLabel: date, fieldType: 'date' },
		{ ...choices(words.colour), fieldType: 'dropdown' },
		{ ...choices(words.sizes), fieldType: 'dropdown', multiselect: true },
		{
			...choices(words.extras),
			fieldType: 'checkbox',
			limitSelection: 'range',
			minSelections: 1,
			maxSelections: 2,
		},
		{ ...choices(words.delivery), fieldType: 'radio', requiredField: true },
		{ fieldType: 'html', elementName: 'note', html: words.html },
		{ fieldType: 'hiddenField', fieldName: 'source', fieldValue: 'sms' },
		{
			fieldLabel: words.files[0],
			fieldType: 'file',
			acceptFileTypes: '.pdf, .png',
			multipleFiles: false,
		},
		{
			fieldLabel: words.files[1],
			fieldType: 'file',
			acceptFileTypes: 'image/*',
			multipleFiles: true,
		},
	];
}

/** The labels of that form's fields by what each asks for, in the language of `words`. */
function everyTypeLabels(words = EVERY_TYPE_WORDS.en) {
	const [name, comment, code, quantity, email, date] = words.labels;
	const [[colour], [sizes], [extras], [delivery]] = [
		words.colour,
		words.sizes,
		words.extras,
		words.delivery,
	];
	const [receipt, photos] = words.files;
	return {
		name,
		comment,
		code,
		quantity,
		email,
		date,
		colour,
		sizes,
		extras,
		delivery,
		receipt,
		photos,
	};
}

/** A photo for that form's field of several files, as a browser sends it. */
const PHOTO = { name: 'parcel.png', type: 'image/png', content: 'PNG parcel' };

module.exports = { EVERY_TYPE_WORDS, everyTypeFields, everyTypeLabels, PHOTO };
