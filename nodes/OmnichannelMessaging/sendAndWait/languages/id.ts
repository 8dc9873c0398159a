/*
 * Indonesian, addressing the customer as Anda.
 */
export default {
	title: 'Jawaban Anda',
	freeTextLabel: 'Jawaban Anda',
	approve: '✓ Setujui',
	decline: '✗ Tolak',
	respond: 'Jawab',
	submit: 'Kirim',
	send: 'Kirim',
	choose: 'Pilih…',
	recordedTitle: 'Jawaban tercatat',
	recordedChoice: 'Tercatat: {label}',
	recordedForm: 'Jawaban Anda tercatat:',
	closePage: 'Anda dapat menutup halaman ini.',
	refusedTitle: 'Jawaban tidak tercatat',
	linkInvalid:
		'Tautan ini tidak valid: mungkin telah diubah atau terpotong. Buka lagi dari ' +
		'pesan yang Anda terima.',
	linkExpired: 'Tautan ini sudah kedaluwarsa: jawaban melalui tautan ini tidak lagi dicatat.',
	linkUnusable: 'Pertanyaan ini tidak dapat dijawab saat ini.',
	cannotAnswer: 'Pertanyaan ini tidak dapat dijawab.',
	notAButton: 'Jawaban tidak tercatat: ketuk salah satu tombol di bawah ini.',
	notFromForm: 'Jawaban tidak tercatat: jawab melalui formulir di halaman ini.',
	fixMarked:
		'Jawaban tidak tercatat: perbaiki isian yang ditandai di bawah ini, lalu kirim formulir lagi.',
	cutShort:
		'Jawaban tidak tercatat: formulir yang diterima tidak lengkap. Kolom file yang dibiarkan ' +
		'kosong, atau file yang terlalu besar untuk server ini, membuat sisa formulir tidak terbaca: ' +
		'pilih file di setiap kolom file, lalu kirim formulir lagi.',
	fillIn: 'Isi kolom ini.',
	enterOne: 'Masukkan satu nilai saja.',
	shorten: {
		other: 'Persingkat teks ini menjadi maksimal {count} karakter.',
	},
	enterNumber: 'Masukkan angka.',
	enterEmail: 'Masukkan alamat email, misalnya nama@contoh.com.',
	enterDate: 'Masukkan tanggal dengan format TTTT-BB-HH.',
	chooseOffered: 'Pilih dari opsi yang tersedia.',
	chooseOnce: 'Pilih setiap opsi satu kali saja.',
	chooseOption: 'Pilih salah satu opsi.',
	chooseOne: 'Pilih satu opsi saja.',
	chooseExactly: {
		other: 'Pilih tepat {count} opsi.',
	},
	chooseAtLeast: {
		other: 'Pilih minimal {count} opsi.',
	},
	chooseAtMost: {
		other: 'Pilih maksimal {count} opsi.',
	},
	chooseBetween: {
		other: 'Pilih {min} sampai {count} opsi.',
	},
	chooseFile: 'Pilih file.',
	chooseOneFile: 'Pilih satu file saja.',
	chooseUpToFiles: {
		other: 'Pilih maksimal {count} file.',
	},
	fileTypes: 'Pilih file dengan salah satu jenis berikut: {types}.',
	fileTooLarge: 'Ukuran setiap file maksimal {size}.',
	hintSize: 'Maksimal {size} per file.',
	hintCount: {
		other: 'Maksimal {count} file.',
	},
	hintTypes: 'Jenis file: {types}.',
	hintAgain:
		'Pilih file lagi: file yang dipilih sebelumnya tidak tersimpan saat halaman ditampilkan ulang.',
};
