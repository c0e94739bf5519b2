language-picker = Language
